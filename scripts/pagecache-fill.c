/*
 * How fast this machine takes fresh pages into the page cache, by the paths a file writer can use: the ceiling of
 * any writer that appends faster than the device writes back (docs/RESULTS.md, session of 2026-11-24 22:24).
 *
 *   pagecache-fill populate MIB DIR   fallocate MIB MiB, map it shared, madvise(MADV_POPULATE_WRITE): the path a
 *                                     mapped writer's page faults (and iolab's journal prefaulter) take
 *   pagecache-fill pwrite   MIB DIR   fallocate, then pwrite(2) zeros in 64 KiB calls, then populate the mapping
 *   pagecache-fill anon     MIB       touch one byte per page of fresh anonymous memory, three rounds
 *
 * Prints GB/s per step. The file (DIR/pagecache-fill.dat) is deleted at the end. Run it after a pause (on a VM
 * whose balloon returns free memory to the host, the first touch of a page costs a host fault) and at sizes below
 * and above vm.dirty_background_ratio of RAM (past it the kernel throttles every writer to its write-back pace).
 * Exit codes: 0 ok, 2 bad arguments, 1 a system call failed (message on stderr).
 * Build: cc -O2 -o /tmp/pagecache-fill scripts/pagecache-fill.c
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static int fail(const char *what, const char *path) {
    fprintf(stderr, "pagecache-fill: %s %s: %s\n", what, path, strerror(errno));
    return 1;
}

int main(int argc, char **argv) {
    if (argc < 3 || atol(argv[2]) <= 0 || (strcmp(argv[1], "anon") != 0 && argc < 4)) {
        fprintf(stderr, "usage: pagecache-fill populate|pwrite MIB DIR | pagecache-fill anon MIB\n");
        return 2;
    }
    size_t n = (size_t) atol(argv[2]) << 20;
    if (strcmp(argv[1], "anon") == 0) {
        for (int round = 1; round <= 3; round++) {
            char *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
            if (p == MAP_FAILED) {
                return fail("mmap", "anonymous memory");
            }
            double t = now();
            for (size_t i = 0; i < n; i += 4096) {
                p[i] = 1;
            }
            printf("anon round %d: first touch %.2f GB/s\n", round, n / (now() - t) / 1e9);
            munmap(p, n);
        }
        return 0;
    }
    int pw = strcmp(argv[1], "pwrite") == 0;
    if (!pw && strcmp(argv[1], "populate") != 0) {
        fprintf(stderr, "pagecache-fill: unknown mode %s (populate, pwrite or anon)\n", argv[1]);
        return 2;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/pagecache-fill.dat", argv[3]);
    int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) {
        return fail("open", path);
    }
    int rc = 0;
    if (fallocate(fd, 0, 0, (off_t) n) != 0) {
        rc = fail("fallocate", path);
        goto out;
    }
    double t0 = now();
    if (pw) {
        static char zeros[65536];
        for (size_t o = 0; o < n; o += sizeof zeros) {
            if (pwrite(fd, zeros, sizeof zeros, (off_t) o) != (ssize_t) sizeof zeros) {
                rc = fail("pwrite", path);
                goto out;
            }
        }
    }
    double t1 = now();
    char *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED) {
        rc = fail("mmap", path);
        goto out;
    }
    if (madvise(p, n, MADV_POPULATE_WRITE) != 0) {
        rc = fail("madvise(MADV_POPULATE_WRITE)", path);
        munmap(p, n);
        goto out;
    }
    double t2 = now();
    munmap(p, n);
    if (pw) {
        printf("pwrite zeros %.2f GB/s, then populate %.2f GB/s: %.2f GB/s in all\n", n / (t1 - t0) / 1e9,
               n / (t2 - t1) / 1e9, n / (t2 - t0) / 1e9);
    } else {
        printf("populate %.2f GB/s\n", n / (t2 - t1) / 1e9);
    }
out:
    close(fd);
    unlink(path);
    return rc;
}
