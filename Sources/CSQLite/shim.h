// SQLite, for reading a local dump of LRCLIB's lyrics database (LyricsDatabase only).
#include <sqlite3.h>

// SQLITE_TRANSIENT is a cast macro Swift cannot import: text bound with it is copied by SQLite.
static inline void (*lp_sqlite_transient(void))(void *) { return SQLITE_TRANSIENT; }
