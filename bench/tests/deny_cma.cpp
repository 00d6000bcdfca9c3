// SPDX-License-Identifier: BSD-3-Clause
// deny_cma: runs a command where cross-memory attach is forbidden, as in a container whose seccomp
// profile refuses process_vm_readv and process_vm_writev (EPERM): the filter is inherited by every
// process the command starts, MPI ranks included. Test-only: shm_copy_test.sh checks that
// scripts/mpirun/run then chooses two copies and the MPI job still works.
// Usage: deny_cma command [args...]

#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cerrno>
#include <cstddef>
#include <cstring>
#include <iterator>

int main(int argc, char** argv) {
  if (argc < 2) {
    fmt::print(stderr, "usage: deny_cma command [args...]\n");
    return 2;
  }
  sock_filter filter[] = {
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_process_vm_readv, 1, 0),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_process_vm_writev, 0, 1),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA)),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
  };
  sock_fprog program = {static_cast<unsigned short>(std::size(filter)), filter};
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
      prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program) != 0) {
    fmt::print(stderr, "deny_cma: cannot install the seccomp filter: {}\n", std::strerror(errno));
    return 2;
  }
  execvp(argv[1], argv + 1);
  fmt::print(stderr, "deny_cma: {}: {}\n", argv[1], std::strerror(errno));
  return 127;
}
