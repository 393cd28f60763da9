/* The checks of a C test program: CHECK prints a failed condition with the rank and
 * counts it; finish_checks agrees on the outcome across ranks, so every rank returns
 * the same exit code. One test program per translation unit. */
#ifndef FERRY_TESTS_CAPI_CHECKS_H
#define FERRY_TESTS_CAPI_CHECKS_H

#include <ferry/ferry.h>
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int g_rank = 0;
static int g_size = 1;
static int g_failures = 0;

#define CHECK(cond, ...)                                                       \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "[rank %d] %s:%d: check failed: %s: ", g_rank, __FILE__, \
              __LINE__, #cond);                                                \
      fprintf(stderr, __VA_ARGS__);                                            \
      fprintf(stderr, "\n");                                                   \
      ++g_failures;                                                            \
    }                                                                          \
  } while (0)

#define CHECK_OK(call) CHECK((call) == FERRY_SUCCESS, "%s", ferry_last_error_message())

/* A call that must fail with `code` and a message containing `text`. */
static inline void expect_error(int got, int code, const char* text, const char* what) {
  const char* message = ferry_last_error_message();
  CHECK(got == code, "%s: got code %d (%s), expected %d (%s); message: %s", what, got,
        ferry_error_string(got), code, ferry_error_string(code), message);
  CHECK(strstr(message, text) != NULL, "%s: message \"%s\" does not contain \"%s\"", what,
        message, text);
}

/* Initialises MPI and g_rank, g_size; returns the engine of --engine=NAME (p2p if none). */
static inline const char* start_checks(int* argc, char*** argv) {
  MPI_Init(argc, argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_size);
  const char* engine = "p2p";
  for (int i = 1; i < *argc; ++i)
    if (strncmp((*argv)[i], "--engine=", 9) == 0) engine = (*argv)[i] + 9;
  return engine;
}

/* Collective: finalises MPI; the exit code, 1 on every rank if any check failed. */
static inline int finish_checks(void) {
  int failed = g_failures > 0;
  int any = 0;
  MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (failed) fprintf(stderr, "(rank %d failed: %d checks)\n", g_rank, g_failures);
  MPI_Finalize();
  return any;
}

#endif /* FERRY_TESTS_CAPI_CHECKS_H */
