/*
 * iolab's native baseline: the same whole-file passes as the Java catalogue, in C, computing the same
 * Checksum64 (see org.iolab.checksum.Checksum64) and writing the same Content (org.iolab.content.Content),
 * so that Java figures can be shown as a ratio to what the hardware and kernel allow.
 *
 *   iolab-native read  FILE BUFFER      read(2) into a buffer of BUFFER bytes
 *   iolab-native fread FILE BUFFER      fread(3) of BUFFER bytes through a stdio buffer of BUFFER bytes
 *   iolab-native mmap  FILE             mmap(2) the whole file, madvise(SEQUENTIAL), checksum it
 *   iolab-native write FILE BUFFER SIZE write(2) SIZE bytes of Content in BUFFER chunks, then fdatasync
 *   iolab-native write-nosync FILE BUFFER SIZE   the same without fdatasync: the page cache's write speed
 *   iolab-native expect SIZE            the checksum of SIZE bytes of Content, computed in memory
 *
 * Prints one JSON object per pass: {"mode":..,"bytes":..,"seconds":..,"checksum":"16 hex digits"}.
 * Exit codes: 0 ok, 2 bad arguments, 1 an I/O error (message on stderr naming the file).
 * Build: cc -O2 -o iolab-native iolab_native.c
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define GOLDEN 0x9E3779B97F4A7C15ULL
#define TABLE_WORDS 8192
#define CONTENT_SEED 0x101AB2026ULL

typedef struct {
    uint64_t s1, s2, pending, length;
    int pending_bytes;
} checksum64;

static inline void cs_word(checksum64 *c, uint64_t w) {
    c->s1 += w;
    c->s2 += c->s1;
}

static inline void cs_byte(checksum64 *c, uint8_t b) {
    c->pending |= (uint64_t) b << (c->pending_bytes << 3);
    c->length++;
    if (++c->pending_bytes == 8) {
        cs_word(c, c->pending);
        c->pending = 0;
        c->pending_bytes = 0;
    }
}

static void cs_update(checksum64 *c, const uint8_t *p, size_t n) {
    size_t i = 0;
    while (c->pending_bytes != 0 && i < n) cs_byte(c, p[i++]);
    uint64_t a = c->s1, b = c->s2;
    size_t words_end = i + ((n - i) & ~(size_t) 7);
    c->length += words_end - i;
    for (; i < words_end; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, 8); /* x86-64 and aarch64 Linux are little-endian, as the definition needs */
        a += w;
        b += a;
    }
    c->s1 = a;
    c->s2 = b;
    while (i < n) cs_byte(c, p[i++]);
}

static uint64_t fmix64(uint64_t k) {
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    k *= 0xc4ceb9fe1a85ec53ULL;
    k ^= k >> 33;
    return k;
}

static uint64_t cs_value(const checksum64 *c) {
    uint64_t a = c->s1, b = c->s2;
    if (c->pending_bytes != 0) {
        a += c->pending;
        b += a;
    }
    return fmix64(a ^ ((b << 29) | (b >> 35)) ^ c->length * GOLDEN);
}

static uint64_t table[TABLE_WORDS];

static void content_init(void) {
    uint64_t x = CONTENT_SEED;
    for (int i = 0; i < TABLE_WORDS; i++) {
        x += GOLDEN;
        uint64_t z = x;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        table[i] = z ^ (z >> 31);
    }
}

static inline uint64_t content_word(uint64_t k) {
    return table[k & (TABLE_WORDS - 1)] + k * GOLDEN;
}

/* fills dst[0, n) with the content bytes from file offset pos */
static void content_fill(uint64_t pos, uint8_t *dst, size_t n) {
    size_t i = 0;
    while ((pos & 7) != 0 && i < n) {
        dst[i++] = (uint8_t) (content_word(pos >> 3) >> ((pos & 7) << 3));
        pos++;
    }
    uint64_t k = pos >> 3;
    for (; i + 8 <= n; i += 8, k++, pos += 8) {
        uint64_t w = content_word(k);
        memcpy(dst + i, &w, 8);
    }
    while (i < n) {
        dst[i++] = (uint8_t) (content_word(pos >> 3) >> ((pos & 7) << 3));
        pos++;
    }
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static void report(const char *mode, uint64_t bytes, double seconds, uint64_t checksum) {
    printf("{\"mode\":\"%s\",\"bytes\":%" PRIu64 ",\"seconds\":%.9f,\"checksum\":\"%016" PRIx64 "\"}\n",
           mode, bytes, seconds, checksum);
    fflush(stdout);
}

static int fail(const char *what, const char *file) {
    fprintf(stderr, "iolab-native: %s %s: %s\n", what, file, strerror(errno));
    return 1;
}

static int usage(const char *why) {
    fprintf(stderr, "iolab-native: %s\nusage: iolab-native read|fread FILE BUFFER | mmap FILE | "
                    "write|write-nosync FILE BUFFER SIZE | expect SIZE\n", why);
    return 2;
}

static int parse_size(const char *s, uint64_t *out) {
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno != 0 || *end != '\0' || end == s) return 0;
    *out = v;
    return 1;
}

int main(int argc, char **argv) {
    if (argc < 2) return usage("no mode given");
    const char *mode = argv[1];
    content_init();
    checksum64 c = {0};
    uint64_t buffer = 0, size = 0;

    if (strcmp(mode, "expect") == 0) {
        if (argc != 3 || !parse_size(argv[2], &size)) return usage("expect needs SIZE in bytes");
        uint8_t *buf = malloc(1 << 20);
        if (!buf) return usage("out of memory");
        double t0 = now();
        for (uint64_t p = 0; p < size; p += 1 << 20) {
            size_t n = size - p < (1 << 20) ? (size_t) (size - p) : (1 << 20);
            content_fill(p, buf, n);
            cs_update(&c, buf, n);
        }
        report(mode, size, now() - t0, cs_value(&c));
        free(buf);
        return 0;
    }
    if (argc < 3) return usage("no FILE given");
    const char *file = argv[2];

    if (strcmp(mode, "mmap") == 0) {
        int fd = open(file, O_RDONLY);
        if (fd < 0) return fail("cannot open", file);
        struct stat st;
        if (fstat(fd, &st) != 0) return fail("cannot stat", file);
        double t0 = now();
        if (st.st_size > 0) {
            uint8_t *m = mmap(NULL, (size_t) st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
            if (m == MAP_FAILED) return fail("cannot mmap", file);
            madvise(m, (size_t) st.st_size, MADV_SEQUENTIAL);
            cs_update(&c, m, (size_t) st.st_size);
            munmap(m, (size_t) st.st_size);
        }
        double t = now() - t0;
        close(fd);
        report(mode, (uint64_t) st.st_size, t, cs_value(&c));
        return 0;
    }

    if (argc < 4 || !parse_size(argv[3], &buffer) || buffer == 0 || buffer > (1ULL << 31))
        return usage("BUFFER must be a byte count from 1 to 2^31");
    uint8_t *buf = malloc(buffer);
    if (!buf) return usage("cannot allocate the buffer");

    if (strcmp(mode, "read") == 0) {
        double t0 = now();
        int fd = open(file, O_RDONLY);
        if (fd < 0) return fail("cannot open", file);
        ssize_t n;
        while ((n = read(fd, buf, buffer)) > 0) cs_update(&c, buf, (size_t) n);
        if (n < 0) return fail("cannot read", file);
        close(fd);
        report(mode, c.length, now() - t0, cs_value(&c));
    } else if (strcmp(mode, "fread") == 0) {
        double t0 = now();
        FILE *f = fopen(file, "rb");
        if (!f) return fail("cannot open", file);
        setvbuf(f, NULL, _IOFBF, buffer);
        size_t n;
        while ((n = fread(buf, 1, buffer, f)) > 0) cs_update(&c, buf, n);
        if (ferror(f)) return fail("cannot read", file);
        fclose(f);
        report(mode, c.length, now() - t0, cs_value(&c));
    } else if (strcmp(mode, "write") == 0 || strcmp(mode, "write-nosync") == 0) {
        if (argc != 5 || !parse_size(argv[4], &size)) return usage("write needs SIZE in bytes");
        double t0 = now();
        int fd = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd < 0) return fail("cannot create", file);
        for (uint64_t p = 0; p < size;) {
            size_t n = size - p < buffer ? (size_t) (size - p) : (size_t) buffer;
            content_fill(p, buf, n);
            size_t done = 0;
            while (done < n) {
                ssize_t w = write(fd, buf + done, n - done);
                if (w < 0) return fail("cannot write", file);
                done += (size_t) w;
            }
            cs_update(&c, buf, n);
            p += n;
        }
        if (strcmp(mode, "write") == 0 && fdatasync(fd) != 0) return fail("cannot fdatasync", file);
        close(fd);
        report(mode, size, now() - t0, cs_value(&c));
    } else {
        return usage("unknown mode");
    }
    free(buf);
    return 0;
}
