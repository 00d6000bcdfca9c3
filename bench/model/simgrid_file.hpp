// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// SimGrid platform files of one <cluster>, read and written: the calibrated platforms
// collcalibrate fits, the platforms the model prices (simgrid_platform.cpp), and SMPI's reading
// of the piecewise settings ("T:a:b;…", "T:f;…") in them.

#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace collbench {

/// A platform file's <config> props, its one <cluster>'s attributes and the props its hosts have,
/// each in the file's order.
struct simgrid_file {
  using attributes = std::vector<std::pair<std::string, std::string>>;
  attributes config, cluster, host_props;

  /// The value of the prop `id` (of <config> or of the hosts), if the file sets it.
  std::optional<std::string> prop(const std::string& id) const;
  /// The cluster's attribute `name`, or "".
  std::string attribute(const std::string& name) const;
};

/// Throws std::runtime_error, naming the file, on one it cannot read or without a <cluster>.
simgrid_file read_simgrid_file(const std::string& path);
/// The file, `comment` (the lines within "<!-- " and " -->") above its <platform>.
void write_simgrid_file(std::ostream& out, const simgrid_file& file, const std::string& comment);

/// A SimGrid quantity in SI units: "12.5GBps" bytes per second, "0.5us" seconds, a bare number as
/// is. `rate`: a bandwidth (else a time). Throws std::runtime_error naming `path` on another unit.
double si_value(const std::string& text, bool rate, const std::string& path);

/// SMPI's value at size s of an overhead "T:a:b;…" (a + b·s; 0 when empty) or of a factor "T:f;…"
/// (1 when empty): the section of the last T below s; at or below the first T, the first section
/// (an overhead) or 1 (a factor).
double smpi_value(const std::string& setting, double s, bool factor);

/// The same setting parsed once, for a value asked at every message (the model's factors).
class smpi_piecewise {
 public:
  smpi_piecewise(const std::string& setting, bool factor);
  /// The value at size s, as smpi_value.
  double at(double s) const;

 private:
  std::vector<std::vector<double>> sections_;
  bool factor_;
};

/// The payload SMPI prices for a message: its bytes and a 16-byte envelope.
constexpr double smpi_envelope = 16;

}  // namespace collbench
