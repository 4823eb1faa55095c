/* The native case runner as a library (docs/case-runner.md): what `slabcast-cases run|check
 * FILE` does, callable from a program (tools/slabcast-cases.c) or a fuzzer
 * (tools/fuzz/fuzz_cases.c). Needs cJSON. */
#ifndef SLABCAST_CASES_LIB_H
#define SLABCAST_CASES_LIB_H

#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/// `run` prints the results document; `check` compares each case with its "expect".
typedef enum slabcast_cases_mode { SLABCAST_CASES_RUN = 0, SLABCAST_CASES_CHECK = 1 } slabcast_cases_mode;

/// The documented exit statuses of the runner.
enum {
    SLABCAST_CASES_EXIT_OK = 0,      ///< run: the file was read; check: every case passed
    SLABCAST_CASES_EXIT_FAILED = 1,  ///< check: some case failed
    SLABCAST_CASES_EXIT_REFUSED = 2  ///< the file cannot be read, is not JSON or not slabcast-cases/1 (or out of memory)
};

/// Runs or checks the case-file document text[0..len). text[len] must be readable and 0 (as a
/// file read by slabcast_cases_run_file is). name is the file name used in messages. The
/// results document or the check report goes to out, file-level messages ("slabcast-cases: ...")
/// to err; either stream may be NULL (the output is then produced and discarded). Returns an
/// exit status above.
int slabcast_cases_run_text(slabcast_cases_mode mode, const char *name, const char *text, size_t len,
                            FILE *out, FILE *err);

/// Reads the file at path (at most 67108864 bytes), then slabcast_cases_run_text.
int slabcast_cases_run_file(slabcast_cases_mode mode, const char *path, FILE *out, FILE *err);

#ifdef __cplusplus
}
#endif

#endif /* SLABCAST_CASES_LIB_H */
