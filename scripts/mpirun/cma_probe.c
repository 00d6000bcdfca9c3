// SPDX-License-Identifier: BSD-3-Clause
/* cma_probe: can two processes of this user, here, copy each other's memory with cross-memory
 * attach (CMA: process_vm_readv / process_vm_writev), as Open MPI's single-copy shared-memory path
 * does between ranks of one node? Exit 0: yes; 1: no (the reason on stderr with -v); 2: the probe
 * itself could not run (fork or pipe failed).
 *
 * It mirrors how Open MPI 4.1 uses CMA (btl/vader): two sibling processes (ranks are children of
 * one launcher, not of each other); the process whose memory is read first allows any process to
 * attach (prctl PR_SET_PTRACER_ANY, what vader does when Yama's ptrace_scope is not 0); the other
 * reads that memory (get) and writes into it (put), and both are checked byte for byte. What can
 * forbid it: Yama ptrace_scope 2 or 3, a seccomp filter (containers), missing ptrace capability
 * across user namespaces, a kernel without CONFIG_CROSS_MEMORY_ATTACH. scripts/mpirun/run compiles
 * this once and runs it to choose Open MPI's single-copy mechanism; it takes about a millisecond. */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

enum { bytes = 1 << 16 };
static unsigned char target_buf[bytes]; /* same address in every process forked from here */
static int verbose;

static void fill(unsigned char *buf, unsigned seed) {
  for (int i = 0; i < bytes; ++i) buf[i] = (unsigned char)(i * 31u + seed);
}

static int same(const unsigned char *buf, unsigned seed) {
  for (int i = 0; i < bytes; ++i)
    if (buf[i] != (unsigned char)(i * 31u + seed)) return 0;
  return 1;
}

/* The target: fills its buffer, allows attach, says so, waits for the reader, checks the write. */
static int target(int ready_w, int done_r) {
  fill(target_buf, 7);
#ifdef PR_SET_PTRACER
  prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY, 0, 0, 0); /* fails without Yama: nothing to allow */
#endif
  char c = 'r';
  if (write(ready_w, &c, 1) != 1) return 2;
  if (read(done_r, &c, 1) != 1) return 2; /* the reader has read and written */
  return same(target_buf, 11) ? 0 : 1;
}

/* The reader: reads the target's buffer (the get) and writes a new pattern into it (the put). */
static int reader(pid_t pid) {
  static unsigned char local[bytes];
  struct iovec here = {local, bytes}, there = {target_buf, bytes};
  ssize_t n = process_vm_readv(pid, &here, 1, &there, 1, 0);
  if (n != bytes) {
    if (verbose) fprintf(stderr, "cma_probe: process_vm_readv: %s\n", n < 0 ? strerror(errno) : "short read");
    return 1;
  }
  if (!same(local, 7)) {
    if (verbose) fprintf(stderr, "cma_probe: process_vm_readv read the wrong bytes\n");
    return 1;
  }
  fill(local, 11);
  n = process_vm_writev(pid, &here, 1, &there, 1, 0);
  if (n != bytes) {
    if (verbose) fprintf(stderr, "cma_probe: process_vm_writev: %s\n", n < 0 ? strerror(errno) : "short write");
    return 1;
  }
  return 0;
}

static int status_of(pid_t pid) {
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return 2;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 2;
}

int main(int argc, char **argv) {
  verbose = argc > 1 && strcmp(argv[1], "-v") == 0;
  int ready[2], done[2];
  if (pipe(ready) != 0 || pipe(done) != 0) return 2;
  const pid_t t = fork();
  if (t < 0) return 2;
  if (t == 0) _exit(target(ready[1], done[0]));
  char c = 0;
  if (read(ready[0], &c, 1) != 1) {
    kill(t, SIGKILL);
    status_of(t);
    return 2;
  }
  const pid_t r = fork();
  if (r < 0) {
    kill(t, SIGKILL);
    status_of(t);
    return 2;
  }
  if (r == 0) _exit(reader(t));
  const int read_status = status_of(r);
  if (write(done[1], &c, 1) != 1) kill(t, SIGKILL);
  const int target_status = status_of(t);
  if (read_status != 0) return read_status;
  if (target_status != 0 && verbose) fprintf(stderr, "cma_probe: process_vm_writev did not reach the target\n");
  return target_status;
}
