// The write floor of `lyricposter sequence`: N files of SIZE bytes written into DIR from T
// threads, each through a temporary file and a rename, as `sequence` writes its PNGs, and nothing
// else. lyricposter-bench prints its files/s beside `sequence`'s PNGs/s on the same disk.
// Usage: write-floor DIR N SIZE THREADS
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
static int n, threads; static size_t size; static const char *dir; static unsigned char *buf;
static void *run(void *arg) {
    long t = (long)arg; char tmp[4096], fin[4096];
    for (int i = (int)t; i < n; i += threads) {
        snprintf(tmp, sizeof tmp, "%s/.%05d.png.tmp", dir, i); snprintf(fin, sizeof fin, "%s/%05d.png", dir, i);
        int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644); if (fd < 0) { perror("open"); exit(1); }
        buf[0] = (unsigned char)i; buf[1] = (unsigned char)(i >> 8);
        size_t done = 0; while (done < size) { ssize_t w = write(fd, buf + done, size - done); if (w <= 0) { perror("write"); exit(1); } done += (size_t)w; }
        close(fd); rename(tmp, fin);
    }
    return NULL;
}
int main(int argc, char **argv) {
    if (argc != 5) { fprintf(stderr, "usage: write-floor DIR N SIZE THREADS\n"); return 64; }
    dir = argv[1]; n = atoi(argv[2]); size = (size_t)atol(argv[3]); threads = atoi(argv[4]);
    buf = malloc(size); for (size_t i = 0; i < size; i++) buf[i] = (unsigned char)(i * 2654435761u >> 24);
    struct timespec a, b; clock_gettime(CLOCK_MONOTONIC, &a);
    if (n <= 0 || size < 2 || threads <= 0 || threads > 64) { fprintf(stderr, "write-floor: bad arguments\n"); return 64; }
    pthread_t th[64]; for (long t = 0; t < threads; t++) pthread_create(&th[t], NULL, run, (void *)t);
    for (int t = 0; t < threads; t++) pthread_join(th[t], NULL);
    clock_gettime(CLOCK_MONOTONIC, &b);
    double s = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9;
    printf("%d files of %zu bytes, %d threads: %.2f s, %.0f files/s\n", n, size, threads, s, n / s);
    return 0;
}
