/* Preloaded into `arbiter match` by tools/bench/cold_footprint.sh: before every read of a pipe
 * or file (an engine's answer), run 64 kB of code and touch FLUSH_MB MB of memory (default
 * 32), as an engine's search does between two plies. Under callgrind's cache simulation the
 * runner's code and data are then cold again at each ply, as on the machine (the code too:
 * data alone leaves the simulated first-level code cache as it was). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <sys/types.h>
#include <unistd.h>

static volatile char *memory;
static size_t length;

__attribute__((noinline)) void arbiter_bench_flush(void) {
    if (!memory) {
        const char *mb = getenv("FLUSH_MB");
        length = (size_t)(mb ? atoi(mb) : 32) << 20;
        memory = malloc(length);
        if (!memory) return;
    }
    for (size_t i = 0; i < length; i += 64) memory[i]++;
    /* Twice the first-level code cache, straight through. */
    __asm__ volatile(".rept 65536\n\tnop\n\t.endr");
}

ssize_t read(int fd, void *buf, size_t n) {
    static ssize_t (*real)(int, void *, size_t);
    if (!real) real = (ssize_t (*)(int, void *, size_t))dlsym(RTLD_NEXT, "read");
    if (fd > 2) arbiter_bench_flush();
    return real(fd, buf, n);
}
