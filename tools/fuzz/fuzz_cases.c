/* fuzz_cases: the bytes as a case-file document through the case runner's own code path
 * (tools/slabcast_cases_lib.c: the code behind `slabcast-cases run|check FILE`), with the
 * output written to memory.
 *
 * Invariants (abort() on failure; crashes, leaks and undefined behaviour are caught by the
 * sanitizers):
 *   - `run` returns 0 or 2 and `check` returns 0, 1 or 2 (docs/case-runner.md), and both
 *     refuse (2) exactly the same documents;
 *   - a refused document prints nothing on stdout and one line beginning "slabcast-cases: " on
 *     stderr; an accepted one prints nothing on stderr;
 *   - `run` prints a JSON document (cJSON reads it back) with "format": "slabcast-results/1" and
 *     one result per case, each with an "id";
 *   - `check` ends with the line "N passed, M failed[, K skipped]", N + M + K is the number of
 *     cases, and it returns 1 exactly when M > 0.
 */
#include "slabcast_cases_lib.h"

#include "fuzz_common.h"

#include <cjson/cJSON.h>

/* The last member named key (the runner reads duplicate keys the same way). */
static const cJSON *last_member(const cJSON *obj, const char *key)
{
    const cJSON *found = NULL;
    if (!cJSON_IsObject(obj)) return NULL;
    for (const cJSON *c = obj->child; c; c = c->next)
        if (c->string && strcmp(c->string, key) == 0) found = c;
    return found;
}

typedef struct captured {
    char *out, *err;
    size_t out_len, err_len;
    int status;
} captured;

static void run(slabcast_cases_mode mode, const char *text, size_t len, captured *c)
{
    FILE *out = open_memstream(&c->out, &c->out_len);
    FILE *err = open_memstream(&c->err, &c->err_len);
    FUZZ_CHECK(out && err);
    c->status = slabcast_cases_run_text(mode, "fuzz.json", text, len, out, err);
    FUZZ_CHECK(fclose(out) == 0 && fclose(err) == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* The runner reads a file into a NUL-terminated buffer: do the same. */
    char *text = malloc(size + 1);
    FUZZ_CHECK(text != NULL);
    if (size) memcpy(text, data, size);
    text[size] = 0;

    captured r = {0}, k = {0};
    run(SLABCAST_CASES_RUN, text, size, &r);
    run(SLABCAST_CASES_CHECK, text, size, &k);
    FUZZ_CHECK(r.status == SLABCAST_CASES_EXIT_OK || r.status == SLABCAST_CASES_EXIT_REFUSED);
    FUZZ_CHECK(k.status == SLABCAST_CASES_EXIT_OK || k.status == SLABCAST_CASES_EXIT_FAILED ||
               k.status == SLABCAST_CASES_EXIT_REFUSED);
    FUZZ_CHECK((r.status == SLABCAST_CASES_EXIT_REFUSED) == (k.status == SLABCAST_CASES_EXIT_REFUSED));

    if (r.status == SLABCAST_CASES_EXIT_REFUSED) {
        FUZZ_CHECK(r.out_len == 0 && k.out_len == 0);
        FUZZ_CHECK(strncmp(r.err, "slabcast-cases: ", 16) == 0 && strcmp(r.err, k.err) == 0);
        FUZZ_CHECK(r.err_len > 0 && r.err[r.err_len - 1] == '\n' && strchr(r.err, '\n') == r.err + r.err_len - 1);
    } else {
        FUZZ_CHECK(r.err_len == 0 && k.err_len == 0);
        /* The number of cases, read as the runner reads the document. */
        cJSON *doc = cJSON_ParseWithLength(text, size);
        FUZZ_CHECK(doc != NULL);
        const cJSON *cases = last_member(doc, "cases");
        FUZZ_CHECK(cJSON_IsArray(cases));
        int ncases = cJSON_GetArraySize(cases);

        /* run: a results document with one result per case */
        cJSON *res = cJSON_ParseWithLength(r.out, r.out_len);
        FUZZ_CHECK(res != NULL);
        const cJSON *format = cJSON_GetObjectItemCaseSensitive(res, "format");
        FUZZ_CHECK(cJSON_IsString(format) && strcmp(format->valuestring, "slabcast-results/1") == 0);
        const cJSON *results = cJSON_GetObjectItemCaseSensitive(res, "results");
        FUZZ_CHECK(cJSON_IsArray(results) && cJSON_GetArraySize(results) == ncases);
        for (const cJSON *x = results->child; x; x = x->next) {
            const cJSON *id = cJSON_GetObjectItemCaseSensitive(x, "id");
            FUZZ_CHECK(cJSON_IsString(id) || cJSON_IsNull(id));
        }
        cJSON_Delete(res);

        /* check: the closing line */
        FUZZ_CHECK(k.out_len > 0 && k.out[k.out_len - 1] == '\n');
        k.out[k.out_len - 1] = 0;
        const char *last = strrchr(k.out, '\n');
        last = last ? last + 1 : k.out;
        int passed = -1, failed = -1, skipped = 0, used = 0;
        int got = sscanf(last, "%d passed, %d failed%n, %d skipped%n", &passed, &failed, &used, &skipped, &used);
        FUZZ_CHECK(got >= 2 && last[used] == 0);
        FUZZ_CHECK(passed >= 0 && failed >= 0 && skipped >= 0 && passed + failed + skipped == ncases);
        FUZZ_CHECK((k.status == SLABCAST_CASES_EXIT_FAILED) == (failed > 0));
        cJSON_Delete(doc);
    }
    free(r.out);
    free(r.err);
    free(k.out);
    free(k.err);
    free(text);
    return 0;
}
