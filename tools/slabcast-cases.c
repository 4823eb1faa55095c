/* slabcast-cases: the native case runner (docs/case-runner.md).
 *
 *   slabcast-cases run FILE     print the results document
 *   slabcast-cases check FILE   compare with each case's "expect", print failures and
 *                               "N passed, M failed"; exit 1 on any failure
 *
 * The work is done by tools/slabcast_cases_lib.c (shared with the fuzzer tools/fuzz/fuzz_cases.c).
 * The wasm runner (web/bin/slabcast-cases.mjs) prints byte-identical output; keep the two in step.
 */
#include "slabcast_cases_lib.h"

#include <stdio.h>
#include <string.h>

static int usage(void)
{
    fputs("usage: slabcast-cases run FILE | slabcast-cases check FILE\n", stderr);
    return SLABCAST_CASES_EXIT_REFUSED;
}

int main(int argc, char **argv)
{
    if (argc != 3) return usage();
    int check = strcmp(argv[1], "check") == 0;
    if (!check && strcmp(argv[1], "run") != 0) return usage();
    return slabcast_cases_run_file(check ? SLABCAST_CASES_CHECK : SLABCAST_CASES_RUN, argv[2], stdout, stderr);
}
