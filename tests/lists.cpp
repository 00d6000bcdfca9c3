// SPDX-License-Identifier: BSD-3-Clause
// collectives-lists: every list of algorithms written for people, printed from the registry (the
// algorithms' descriptors, src/kit/descriptor.hpp), written into its file, or checked against it
// (ctest's `lists.files`). No MPI call.
//
//   collectives-lists check [source dir]   each list as its file has it, against the registry's
//   collectives-lists write [source dir]   each list rewritten from the registry
//   collectives-lists print <list>         one list: readme, costs, headers, gallery
//
// The lists, each the text between two fixed lines of its file:
//   README.md            the table of every collective's algorithms, between <!-- algorithms:begin -->
//                        and <!-- algorithms:end -->;
//   docs/algorithms.md   the cost table (note, textbook cost, rank order), between
//                        <!-- costs:begin --> and <!-- costs:end -->;
//   include/collectives/ the "Algorithms:" sentence that ends the `///` comment of each collective's
//                        function, from the line it starts;
//   docs/algorithms/README.md  the gallery's list of pictures, from its first "## " heading on.

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <collectives/algorithm.hpp>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "kit/collective_traits.hpp"
#include "dispatch/registry.hpp"
#include "pmpi/functions.hpp"

namespace {

namespace fs = std::filesystem;
using collectives::algorithm;
using collectives::collective;
using collectives::detail::algorithm_descriptor;

constexpr std::size_t columns = 110;  // .clang-format's

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::string joined(const std::vector<std::string>& lines) {
  std::string text;
  for (const std::string& line : lines) text += line + '\n';
  return text;
}

// `text` as `///` lines of at most `columns` characters (counted in code points), broken at spaces.
std::vector<std::string> comment_lines(const std::string& text) {
  const auto width = [](const std::string& s) {
    return static_cast<std::size_t>(
        std::count_if(s.begin(), s.end(), [](char ch) { return (ch & 0xC0) != 0x80; }));
  };
  std::vector<std::string> lines{"///"};
  std::istringstream words(text);
  for (std::string word; words >> word;) {
    if (lines.back() != "///" && width(lines.back()) + 1 + width(word) > columns) lines.emplace_back("///");
    lines.back() += " " + word;
  }
  return lines;
}

const algorithm_descriptor& descriptor(collective c, algorithm a) {
  return *collectives::detail::find_algorithm(c, a);
}

// The MPI function vendor calls for c: the drop-in's table.
std::string_view mpi_function_of(collective c) {
  for (const collectives::pmpi::function_info& f : collectives::pmpi::functions)
    if (f.coll == c) return f.name;
  return "the MPI library's";
}

std::vector<std::string> readme_table() {
  std::vector<std::string> out{"| collective | algorithms |", "| --- | --- |"};
  for (collective c : collectives::all_collectives()) {
    std::string names;
    for (algorithm a : collectives::algorithms_for(c))
      names += fmt::format("{}`{}`", names.empty() ? "" : ", ", to_string(a));
    out.push_back(fmt::format("| {} | {} |", to_string(c), names));
  }
  return out;
}

std::vector<std::string> cost_table() {
  std::vector<std::string> out{
      "| collective | algorithm ([pictures](algorithms/README.md)) | cost | order (non-commutative ops) |",
      "| --- | --- | --- | --- |"};
  for (collective c : collectives::all_collectives()) {
    bool first = true;
    for (algorithm a : collectives::algorithms_for(c)) {
      if (a == algorithm::vendor) continue;
      const algorithm_descriptor& d = descriptor(c, a);
      const std::string order = !collectives::detail::reduces(c) ? "—"
                                : d.keeps_rank_order             ? "keeps order"
                                                                 : "commutative only";
      out.push_back(fmt::format("| {}| {}{} | {} | {} |", first ? fmt::format("{} ", to_string(c)) : "",
                                d.name, d.note.empty() ? "" : fmt::format(" ({})", d.note), d.cost, order));
      first = false;
    }
  }
  out.emplace_back("| every collective | vendor (the MPI library's own) | — | as MPI (keeps order) |");
  return out;
}

// The sentence that ends the comment of c's function in its public header.
std::vector<std::string> header_sentence(collective c) {
  std::string text = "Algorithms:";
  const std::span<const algorithm> all = collectives::algorithms_for(c);
  for (std::size_t i = 0; i < all.size(); ++i) {
    const algorithm_descriptor& d = descriptor(c, all[i]);
    std::vector<std::string> notes;
    if (d.alg == algorithm::vendor) notes.emplace_back(mpi_function_of(c));
    if (d.node_aware) notes.emplace_back("node-aware");
    if (!d.keeps_rank_order) notes.emplace_back("commutative ops only");
    text += fmt::format(" `{}`", d.name);
    if (!notes.empty()) text += fmt::format(" ({})", fmt::join(notes, "; "));
    text += i + 1 < all.size() ? "," : ".";
  }
  return comment_lines(text);
}

std::vector<std::string> gallery() {
  std::vector<std::string> out;
  for (collective c : collectives::all_collectives()) {
    out.push_back(fmt::format("## {}", to_string(c)));
    out.emplace_back();
    for (algorithm a : collectives::algorithms_for(c))
      if (a != algorithm::vendor)
        out.push_back(fmt::format("- **{0}**: [p = 4]({1}_{0}_p4.png), [p = 5]({1}_{0}_p5.png)", to_string(a),
                                  to_string(c)));
    out.emplace_back();
  }
  return out;
}

/// One list in one file: which lines of the file it is, and what the registry says they should be.
struct list_in_file {
  fs::path file;  ///< relative to the source directory
  std::string what;
  /// [first, last) of the list's lines in the file, or a message saying why they cannot be found.
  std::function<std::pair<std::size_t, std::size_t>(const std::vector<std::string>&)> find;
  std::vector<std::string> expected;
};

[[noreturn]] void unfound(const std::string& message) { throw std::runtime_error(message); }

// Between two marker lines.
auto between(std::string begin, std::string end) {
  return [begin, end](const std::vector<std::string>& lines) {
    const auto b = std::find(lines.begin(), lines.end(), begin),
               e = std::find(lines.begin(), lines.end(), end);
    if (b == lines.end() || e == lines.end() || e < b)
      unfound(fmt::format("no '{}' ... '{}' lines", begin, end));
    return std::pair<std::size_t, std::size_t>(b - lines.begin() + 1, e - lines.begin());
  };
}

// The `///` lines from the one starting "/// Algorithms:" to the end of the comment above c's
// function (its template line, if any, between).
auto sentence_of(collective c) {
  return [c](const std::vector<std::string>& lines) {
    const std::regex declaration(fmt::format("^(inline )?void {}\\(", to_string(c)));
    for (std::size_t i = 0; i < lines.size(); ++i) {
      if (!std::regex_search(lines[i], declaration)) continue;
      std::size_t end = i;
      while (end > 0 && lines[end - 1].starts_with("template")) --end;
      for (std::size_t top = end; top > 0 && lines[top - 1].starts_with("///"); --top)
        if (lines[top - 1].starts_with("/// Algorithms:"))
          return std::pair<std::size_t, std::size_t>(top - 1, end);
      unfound(fmt::format("the comment of {}() has no line starting '/// Algorithms:'", to_string(c)));
    }
    unfound(fmt::format("no 'void {}(' here", to_string(c)));
  };
}

// The header of include/collectives/ that declares c's function: <c>.hpp, or scan.hpp for exscan.
fs::path header_of(collective c) {
  return c == collective::exscan ? "include/collectives/scan.hpp"
                                 : fmt::format("include/collectives/{}.hpp", to_string(c));
}

std::vector<list_in_file> every_list() {
  std::vector<list_in_file> lists{
      {"README.md", "the table of algorithms",
       between("<!-- algorithms:begin -->", "<!-- algorithms:end -->"), readme_table()},
      {"docs/algorithms.md", "the cost table", between("<!-- costs:begin -->", "<!-- costs:end -->"),
       cost_table()},
      {"docs/algorithms/README.md", "the gallery's list",
       [](const std::vector<std::string>& lines) {
         const auto first = std::find_if(lines.begin(), lines.end(),
                                         [](const std::string& l) { return l.starts_with("## "); });
         if (first == lines.end()) unfound("no '## ' heading");
         return std::pair<std::size_t, std::size_t>(first - lines.begin(), lines.size());
       },
       gallery()}};
  for (collective c : collectives::all_collectives())
    lists.push_back({header_of(c), fmt::format("the 'Algorithms:' sentence of {}()", to_string(c)),
                     sentence_of(c), header_sentence(c)});
  return lists;
}

std::vector<std::string> read_lines(const fs::path& path) {
  std::ifstream in(path);
  if (!in) unfound(fmt::format("cannot read {}", path.string()));
  std::stringstream s;
  s << in.rdbuf();
  return lines_of(s.str());
}

// Checks (or, `write`, rewrites) every list; the number of lists that differed (check) or could not
// be found.
int check_or_write(const fs::path& source, bool write) {
  int bad = 0;
  for (const list_in_file& l : every_list()) {
    const fs::path path = source / l.file;
    try {
      std::vector<std::string> lines = read_lines(path);
      const auto [first, last] = l.find(lines);
      const std::vector<std::string> found(lines.begin() + static_cast<std::ptrdiff_t>(first),
                                           lines.begin() + static_cast<std::ptrdiff_t>(last));
      if (found == l.expected) continue;
      if (write) {
        lines.erase(lines.begin() + static_cast<std::ptrdiff_t>(first),
                    lines.begin() + static_cast<std::ptrdiff_t>(last));
        lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(first), l.expected.begin(),
                     l.expected.end());
        std::ofstream(path) << joined(lines);
        fmt::print("collectives-lists: rewrote {} in {}\n", l.what, l.file.string());
        continue;
      }
      std::size_t i = 0;
      while (i < found.size() && i < l.expected.size() && found[i] == l.expected[i]) ++i;
      fmt::print(stderr, "{}:{}: {} differs from the registry's:\n  the file:     {}\n  the registry: {}\n",
                 l.file.string(), first + i + 1, l.what, i < found.size() ? found[i] : "(nothing)",
                 i < l.expected.size() ? l.expected[i] : "(nothing)");
      ++bad;
    } catch (const std::runtime_error& e) {
      fmt::print(stderr, "{}: {}: {}\n", l.file.string(), l.what, e.what());
      ++bad;
    }
  }
  return bad;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Every list of algorithms written for people, from the algorithms' descriptors"};
  app.require_subcommand(1);
  std::string source = COLLECTIVES_SOURCE_DIR;
  CLI::App* check = app.add_subcommand("check", "Check every list in its file against the registry");
  check->add_option("source", source, "The source directory")->check(CLI::ExistingDirectory);
  CLI::App* write = app.add_subcommand("write", "Rewrite every list in its file from the registry");
  write->add_option("source", source, "The source directory")->check(CLI::ExistingDirectory);
  std::string which;
  CLI::App* print = app.add_subcommand("print", "Print one list");
  print->add_option("list", which, "readme, costs, headers or gallery")
      ->required()
      ->check(CLI::IsMember({"readme", "costs", "headers", "gallery"}));
  CLI11_PARSE(app, argc, argv);

  if (print->parsed()) {
    std::vector<std::string> lines;
    if (which == "readme") lines = readme_table();
    if (which == "costs") lines = cost_table();
    if (which == "gallery") lines = gallery();
    if (which == "headers")
      for (collective c : collectives::all_collectives())
        for (const std::string& line : header_sentence(c)) lines.push_back(line);
    fmt::print("{}", joined(lines));
    return 0;
  }
  const int bad = check_or_write(source, write->parsed());
  if (bad > 0)
    fmt::print(stderr, "collectives-lists: {} list{} to regenerate: {} write {}\n", bad, bad == 1 ? "" : "s",
               argv[0], source);
  return bad > 0 ? 1 : 0;
}
