#include "metrics.hpp"

namespace collbench {

using collectives::collective;

bool counts_whole_array(collective c) {
  return c == collective::scatter || c == collective::gather || c == collective::allgather ||
         c == collective::reduce_scatter || c == collective::alltoall;
}

bool reduces(collective c) {
  return c == collective::reduce || c == collective::reduce_scatter || c == collective::allreduce ||
         c == collective::scan || c == collective::exscan;
}

bool has_root(collective c) {
  return c == collective::broadcast || c == collective::scatter || c == collective::gather ||
         c == collective::reduce;
}

bool time_only(collective c) { return c == collective::barrier; }

double busbw_factor(collective c, int ranks) {
  const double p = ranks;
  switch (c) {
    case collective::allreduce:
      return 2.0 * (p - 1.0) / p;
    case collective::broadcast:
    case collective::reduce:
    case collective::scan:
    case collective::exscan:
      return 1.0;
    case collective::barrier:
      return 0.0;
    case collective::allgather:
    case collective::reduce_scatter:
    case collective::alltoall:
    case collective::gather:
    case collective::scatter:
      break;
  }
  return (p - 1.0) / p;
}

std::optional<message> shape(collective c, std::size_t requested, std::size_t elem_size, int ranks) {
  if (time_only(c)) return message{0, 0, 0};
  const std::size_t elements = requested / elem_size;
  if (!counts_whole_array(c)) {
    if (elements == 0) return std::nullopt;
    return message{elements * elem_size, elements, elements};
  }
  const std::size_t p = static_cast<std::size_t>(ranks);
  const std::size_t block = elements / p;
  if (block == 0) return std::nullopt;
  return message{block * p * elem_size, block * p, block};
}

double gigabytes_per_second(std::size_t bytes, double seconds) {
  return seconds > 0 ? static_cast<double>(bytes) / seconds / 1e9 : 0.0;
}

}  // namespace collbench
