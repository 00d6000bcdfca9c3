// SPDX-License-Identifier: BSD-3-Clause
#include "measure/mpit.hpp"

#include <fmt/format.h>

#include <cstring>

namespace collbench {

int find_cvar(std::string_view wanted, MPI_T_enum* enumtype, std::string* description) {
  int count = 0;
  if (MPI_T_cvar_get_num(&count) != MPI_SUCCESS) return -1;
  for (int i = 0; i < count; ++i) {
    char name[256], desc[4096];  // MPICH lists its algorithms in descriptions
    int name_len = sizeof name, desc_len = sizeof desc, verbosity = 0, bind = 0, scope = 0;
    MPI_Datatype type;
    MPI_T_enum names = MPI_T_ENUM_NULL;
    if (MPI_T_cvar_get_info(i, name, &name_len, &verbosity, &type, &names, desc, &desc_len, &bind, &scope) !=
        MPI_SUCCESS)
      continue;
    if (wanted != name) continue;
    if (enumtype != nullptr) *enumtype = names;
    if (description != nullptr) description->assign(desc);
    return i;
  }
  return -1;
}

bool access_cvar(int index, int* value, bool write) {
  MPI_T_cvar_handle handle;
  int count = 0;
  if (MPI_T_cvar_handle_alloc(index, nullptr, &handle, &count) != MPI_SUCCESS) return false;
  long long buffer[4] = {0, 0, 0, 0};  // room for whatever width the variable has
  bool ok = false;
  if (write) {
    ok = MPI_T_cvar_write(handle, value) == MPI_SUCCESS;
  } else {
    ok = MPI_T_cvar_read(handle, buffer) == MPI_SUCCESS;
    std::memcpy(value, buffer, sizeof *value);  // an int, or a narrower bool: zero-filled above
  }
  MPI_T_cvar_handle_free(&handle);
  return ok;
}

shm_copy_info shm_copy_in_force() {
  constexpr std::string_view name = "btl_vader_single_copy_mechanism";
#if COLLBENCH_SMPI
  return {"unknown", "", "SimGrid SMPI: messages are timed by the platform's network model"};
#endif
  int provided = 0;
  if (MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) != MPI_SUCCESS)
    return {"unknown", "", "the MPI tool interface (MPI_T) is not available"};
  shm_copy_info out{"unknown", "", fmt::format("this MPI library has no {} control variable", name)};
  MPI_T_enum names = MPI_T_ENUM_NULL;
  const int index = find_cvar(name, &names);
  int value = 0;
  if (index >= 0 && !access_cvar(index, &value, false)) {
    out.source = fmt::format("{} could not be read through MPI_T", name);
  } else if (index >= 0) {
    out.mechanism = std::to_string(value);
    int items = 0;
    char enum_name[256];
    int enum_name_len = sizeof enum_name;
    if (names != MPI_T_ENUM_NULL) MPI_T_enum_get_info(names, &items, enum_name, &enum_name_len);
    for (int i = 0; i < items; ++i) {
      int item_value = 0;
      char item[256];
      int item_len = sizeof item;
      if (MPI_T_enum_get_item(names, i, &item_value, item, &item_len) == MPI_SUCCESS && item_value == value)
        out.mechanism = item;
    }
    // none: through vader's shared segment; emulated: single-copy calls emulated by the same two copies.
    out.path = out.mechanism == "none" || out.mechanism == "emulated" ? "double" : "single";
    out.source = fmt::format("Open MPI's {}, read through MPI_T", name);
  }
  MPI_T_finalize();
  return out;
}

std::string describe(const shm_copy_info& s) {
  if (s.path == "single") return fmt::format("single copy ({})", s.mechanism);
  if (s.path == "double") return fmt::format("two copies ({})", s.mechanism);
  return fmt::format("unknown ({})", s.source);
}

}  // namespace collbench
