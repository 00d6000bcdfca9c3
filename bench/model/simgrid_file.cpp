// SPDX-License-Identifier: BSD-3-Clause
#include "model/simgrid_file.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <regex>
#include <sstream>
#include <stdexcept>

namespace collbench {
namespace {

std::optional<std::string> find(const simgrid_file::attributes& list, const std::string& name) {
  for (const auto& [key, value] : list)
    if (key == name) return value;
  return std::nullopt;
}

// The pairs `pattern`'s two groups match in `text`, in order.
simgrid_file::attributes pairs_of(const std::string& text, const std::regex& pattern) {
  simgrid_file::attributes list;
  for (std::sregex_iterator i(text.begin(), text.end(), pattern), end; i != end; ++i)
    list.emplace_back((*i)[1], (*i)[2]);
  return list;
}
// A tag's attributes name="value", and the props <prop id="…" value="…"/>.
const std::regex attribute_pattern("([A-Za-z_][\\w:/-]*)=\"([^\"]*)\""),
    prop_pattern("<prop id=\"([^\"]*)\" value=\"([^\"]*)\"");

std::vector<std::string> fields_of(const std::string& text, char by) {
  std::vector<std::string> parts;
  std::stringstream in(text);
  for (std::string part; std::getline(in, part, by);) parts.push_back(part);
  return parts;
}

// The cluster's attributes on its first line (its name and hosts); its links on the next.
constexpr std::size_t cluster_first_line = 6;

}  // namespace

std::optional<std::string> simgrid_file::prop(const std::string& id) const {
  if (auto value = find(config, id)) return value;
  return find(host_props, id);
}

std::string simgrid_file::attribute(const std::string& name) const {
  return find(cluster, name).value_or("");
}

simgrid_file read_simgrid_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(fmt::format("platform {}: cannot read it", path));
  std::stringstream buffer;
  buffer << in.rdbuf();
  // Comments out: a calibrated platform's narrates its measurement.
  const std::string text = std::regex_replace(buffer.str(), std::regex("<!--[\\s\\S]*?-->"), "");
  std::smatch cluster;
  if (!std::regex_search(text, cluster, std::regex("<cluster[^>]*>")))
    throw std::runtime_error(fmt::format("platform {}: no <cluster>", path));
  simgrid_file file;
  file.config = pairs_of(cluster.prefix().str(), prop_pattern);
  file.cluster = pairs_of(cluster.str(), attribute_pattern);
  file.host_props = pairs_of(cluster.suffix().str(), prop_pattern);
  return file;
}

void write_simgrid_file(std::ostream& out, const simgrid_file& file, const std::string& comment) {
  out << "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
      << "<!-- " << comment << " -->\n<platform version=\"4.1\">\n  <config>\n";
  for (const auto& [id, value] : file.config)
    out << fmt::format("    <prop id=\"{}\" value=\"{}\"/>\n", id, value);
  out << "  </config>\n  <cluster";
  for (std::size_t i = 0; i < file.cluster.size(); ++i)
    out << (i == cluster_first_line ? "\n           " : " ")
        << fmt::format("{}=\"{}\"", file.cluster[i].first, file.cluster[i].second);
  out << ">\n";
  for (const auto& [id, value] : file.host_props)
    out << fmt::format("    <prop id=\"{}\" value=\"{}\"/>\n", id, value);
  out << "  </cluster>\n</platform>\n";
}

double si_value(const std::string& text, bool rate, const std::string& path) {
  static const std::vector<std::pair<std::string, double>> times{
      {"s", 1}, {"ms", 1e-3}, {"us", 1e-6}, {"ns", 1e-9}},
      rates{
          {"Bps", 1},        {"kBps", 1e3},     {"KBps", 1e3},       {"MBps", 1e6},          {"GBps", 1e9},
          {"TBps", 1e12},    {"KiBps", 1024.},  {"MiBps", 1048576.}, {"GiBps", 1073741824.}, {"bps", 1 / 8.},
          {"kbps", 1e3 / 8}, {"Mbps", 1e6 / 8}, {"Gbps", 1e9 / 8}};
  std::size_t used = 0;
  double value = 0;
  try {
    value = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  const std::string unit = text.substr(used);
  if (used > 0 && unit.empty()) return value;
  if (used > 0)
    for (const auto& [name, scale] : rate ? rates : times)
      if (unit == name) return value * scale;
  throw std::runtime_error(
      fmt::format("platform {}: '{}' is not a {} SimGrid reads", path, text, rate ? "bandwidth" : "latency"));
}

smpi_piecewise::smpi_piecewise(const std::string& setting, bool factor) : factor_(factor) {
  for (const auto& section : fields_of(setting, ';')) {
    std::vector<double> values;
    for (const auto& v : fields_of(section, ':')) values.push_back(std::stod(v));
    sections_.push_back(values);
  }
  std::sort(sections_.begin(), sections_.end());
}

double smpi_piecewise::at(double s) const {
  if (sections_.empty()) return factor_ ? 1 : 0;
  auto of = [&](const std::vector<double>& v) { return factor_ ? v.at(1) : v.at(1) + v.at(2) * s; };
  double current = factor_ ? 1 : of(sections_.front());
  for (const auto& v : sections_) {
    if (s <= v[0]) return current;
    current = of(v);
  }
  return current;
}

double smpi_value(const std::string& setting, double s, bool factor) {
  return smpi_piecewise(setting, factor).at(s);
}

}  // namespace collbench
