-- wrk script for scripts/bench-serve.sh: every request asks `lyricposter serve` for frame.png at
-- a time no earlier request asked for, so the server's picture cache (keyed by `at`) never
-- answers and each request is a real render. Times in the same lyric line give the same scene but
-- still a render of their own.
--
-- Request k (thread t of n asks for k = t, t + n, t + 2n, ...) asks for
--     at = PARITY + (STEP * k) mod 177994 ms
-- within Night Drive's 2:58. STEP is even, so at keeps PARITY's parity: runs with PARITY 0 and 1
-- never ask for the same time. 177994 = 2 * 88997 with 88997 prime, so for an even STEP below
-- 177994 the first 88997 requests of a run all ask for different times. STEP 38 (the default)
-- keeps ~145 consecutive requests in one lyric line (the same scene drawn again); a STEP longer
-- than the song's lines (about 5.5 s), such as 6008, moves every request to another line.
--
-- Usage: wrk -t N -s scripts/bench-serve.lua http://127.0.0.1:PORT/api/songs/ID/frame.png -- N [STEP [PARITY]]

local started = 0

-- Main state: number the threads 0, 1, ...
function setup(thread)
    thread:set("thread_index", started)
    started = started + 1
end

-- Each thread's state: the thread count, step and parity come after `--`.
function init(args)
    threads = tonumber(args[1]) or 1
    step = tonumber(args[2]) or 38
    parity = tonumber(args[3]) or 0
    counter = 0
end

function request()
    local k = counter * threads + thread_index
    counter = counter + 1
    return wrk.format(nil, wrk.path .. "?at=" .. parity + (k * step) % 177994)
end
