/* A plain main() for the fuzz targets: runs LLVMFuzzerTestOneInput once on every file named,
 * or on every file of a directory named. Built with the native tests (any C compiler, no
 * libFuzzer), so that ctest replays the checked-in corpora (tests/fuzz/corpus/<target>/),
 * the inputs that once broke an invariant included. A broken invariant aborts. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) { fprintf(stderr, "replay: cannot open %s\n", path); return 1; }
    size_t cap = 1 << 16, n = 0;
    uint8_t *buf = malloc(cap);
    if (!buf) { fclose(f); return 1; }
    for (;;) {
        if (n == cap) {
            uint8_t *b = realloc(buf, cap *= 2);
            if (!b) { free(buf); fclose(f); return 1; }
            buf = b;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        if (got == 0) break;
        n += got;
    }
    fclose(f);
    LLVMFuzzerTestOneInput(buf, n);
    free(buf);
    return 0;
}

int main(int argc, char **argv)
{
    int files = 0, bad = 0;
    for (int i = 1; i < argc; ++i) {
        struct stat st;
        if (stat(argv[i], &st) != 0) { fprintf(stderr, "replay: no such file %s\n", argv[i]); return 1; }
        if (!S_ISDIR(st.st_mode)) { bad |= run_file(argv[i]); ++files; continue; }
        DIR *d = opendir(argv[i]);
        if (!d) { fprintf(stderr, "replay: cannot read %s\n", argv[i]); return 1; }
        struct dirent *e;
        while ((e = readdir(d))) {
            if (e->d_name[0] == '.') continue;
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", argv[i], e->d_name);
            bad |= run_file(path);
            ++files;
        }
        closedir(d);
    }
    printf("replay: %d inputs, no invariant broken\n", files);
    return bad || files == 0;
}
