/* The baseline for `cargo xtask bench`: a bare C program that writes the
 * same files as the two-player build, one open/write/close each, into a new
 * folder. It reads them all into memory first and times only the writing.
 *
 * Usage: write_files MANIFEST OUTDIR
 * MANIFEST: repeated [u32 path length][path][u32 data length][data], little-endian.
 * Prints the milliseconds spent creating OUTDIR and writing the files. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: write_files MANIFEST OUTDIR\n"); return 2; }
    FILE *f = fopen(argv[1], "rb");
    if (!f) { perror(argv[1]); return 1; }
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *buf = malloc(size);
    if (fread(buf, 1, size, f) != (size_t)size) { perror("read"); return 1; }
    fclose(f);
    char path[4096];
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    if (mkdir(argv[2], 0755) != 0) { perror(argv[2]); return 1; }
    long at = 0;
    while (at < size) {
        uint32_t plen, dlen;
        memcpy(&plen, buf + at, 4); at += 4;
        int n = snprintf(path, sizeof path, "%s/%.*s", argv[2], (int)plen, buf + at); at += plen;
        (void)n;
        memcpy(&dlen, buf + at, 4); at += 4;
        int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd < 0) { perror(path); return 1; }
        if (write(fd, buf + at, dlen) != (ssize_t)dlen) { perror(path); return 1; }
        close(fd);
        at += dlen;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    printf("%.3f\n", (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6);
    return 0;
}
