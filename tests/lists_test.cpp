// SPDX-License-Identifier: BSD-3-Clause
// Every list of algorithms written for people is checked against algorithms_for(), the registry's
// list: the public headers' "Algorithms:" sentences, the README's table (between
// <!-- algorithms:begin --> and <!-- algorithms:end -->) and the gallery (docs/algorithms/README.md).
// Also the names themselves: to_string and parse are inverses over every enumerator. No MPI.
//
// Conventions checked:
// - header: the `///` comment right above `void <collective>(` holds one sentence starting
//   "Algorithms:" naming, in backticks and in algorithms_for() order, every algorithm of the
//   collective. It is split into groups by ';': a group that says "commutative ops only" names
//   exactly the algorithms that do not keep rank order (keeps_rank_order() false).
// - README: one row per collective, `| collective | `alg1`, `alg2`, ... |`, algorithms in
//   algorithms_for() order (vendor included).
// - gallery: a `## <collective>` section per collective listing `- **<algorithm>**: ...` for every
//   algorithm but vendor, in algorithms_for() order, each linking pictures that exist.

#define BOOST_TEST_MODULE lists
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <boost/test/unit_test.hpp>
#include <collectives/algorithm.hpp>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using collectives::algorithm;
using collectives::collective;

const fs::path source_dir{COLLECTIVES_SOURCE_DIR};

std::string read(const fs::path& path) {
  std::ifstream in(path);
  BOOST_TEST_REQUIRE(in.good(), "cannot read " << path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::vector<std::string> expected_names(collective c, bool with_vendor = true) {
  std::vector<std::string> names;
  for (algorithm a : collectives::algorithms_for(c))
    if (with_vendor || a != algorithm::vendor) names.emplace_back(to_string(a));
  return names;
}

// The words in backticks, in order.
std::vector<std::string> backticked(const std::string& text) {
  static const std::regex word("`([^`]*)`");
  std::vector<std::string> out;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), word); it != std::sregex_iterator(); ++it)
    out.push_back((*it)[1]);
  return out;
}

std::string trim(std::string s) {
  const auto first = s.find_first_not_of(" \t"), last = s.find_last_not_of(" \t");
  return first == std::string::npos ? "" : s.substr(first, last - first + 1);
}

// The text of the "Algorithms:" sentence documenting `void <name>(` in include/collectives/, or ""
// (with a failed check) when there is none.
std::string algorithms_sentence(collective c) {
  const std::string name(to_string(c));
  const std::regex declaration("^(inline )?void " + name + "\\(");
  for (const auto& file : fs::directory_iterator(source_dir / "include/collectives")) {
    if (file.path().extension() != ".hpp") continue;
    const std::vector<std::string> lines = lines_of(read(file.path()));
    for (std::size_t i = 0; i < lines.size(); ++i) {
      if (!std::regex_search(lines[i], declaration)) continue;
      // The doc comment: the `///` lines above the declaration and its template line.
      std::size_t top = i;
      while (top > 0 && lines[top - 1].starts_with("template")) --top;
      std::string comment;
      while (top > 0 && lines[top - 1].starts_with("///")) {
        --top;
        comment = lines[top].substr(3) + "\n" + comment;
      }
      const std::size_t start = comment.find("Algorithms:");
      BOOST_TEST_REQUIRE(start != std::string::npos,
                         file.path().filename() << ": the comment of " << name << "() has no 'Algorithms:'");
      std::string sentence = comment.substr(start + std::string_view("Algorithms:").size());
      static const std::regex end_of_sentence("\\.(\\s|$)");
      std::smatch m;
      if (std::regex_search(sentence, m, end_of_sentence)) sentence = sentence.substr(0, m.position());
      return sentence;
    }
  }
  BOOST_TEST_ERROR("no header of include/collectives declares void " << name << "(");
  return "";
}

std::vector<std::string> split(const std::string& text, char by) {
  std::vector<std::string> parts;
  std::istringstream in(text);
  for (std::string part; std::getline(in, part, by);) parts.push_back(part);
  return parts;
}

// The README's table between the markers, or std::nullopt without markers.
std::optional<std::string> readme_table() {
  const std::string text = read(source_dir / "README.md");
  const std::string begin = "<!-- algorithms:begin -->", end = "<!-- algorithms:end -->";
  const std::size_t b = text.find(begin), e = text.find(end);
  if (b == std::string::npos && e == std::string::npos) return std::nullopt;
  BOOST_TEST_REQUIRE((b != std::string::npos && e != std::string::npos && b < e),
                     "README.md: " << begin << " and " << end << " must both be there, in that order");
  return text.substr(b + begin.size(), e - b - begin.size());
}

boost::test_tools::assertion_result readme_has_table(boost::unit_test::test_unit_id) {
  boost::test_tools::assertion_result has(readme_table().has_value());
  if (!has)
    has.message() << "README.md has no <!-- algorithms:begin --> ... <!-- algorithms:end --> table "
                     "yet: skipped";
  return has;
}

}  // namespace

BOOST_AUTO_TEST_CASE(names_round_trip) {
  for (collective c : collectives::all_collectives()) {
    BOOST_TEST((collectives::parse_collective(to_string(c)) == c), to_string(c));
    BOOST_TEST(!to_string(c).empty());
  }
  BOOST_TEST(collectives::all_collectives().size() ==
             static_cast<std::size_t>(collective::reduce_scatterv) + 1);
  for (int i = 0; i <= static_cast<int>(algorithm::scatter_recursive_doubling); ++i) {
    const auto a = static_cast<algorithm>(i);
    BOOST_TEST((collectives::parse_algorithm(to_string(a)) == a), "algorithm " << i);
  }
  BOOST_TEST(to_string(static_cast<algorithm>(static_cast<int>(algorithm::scatter_recursive_doubling) + 1)) ==
             "(not an algorithm)");
  BOOST_TEST(!collectives::parse_algorithm("Ring"));
  BOOST_TEST(!collectives::parse_collective(""));
}

BOOST_AUTO_TEST_CASE(headers_name_every_algorithm) {
  for (collective c : collectives::all_collectives()) {
    BOOST_TEST_CONTEXT(to_string(c)) {
      const std::string sentence = algorithms_sentence(c);
      const std::vector<std::string> written = backticked(sentence), expected = expected_names(c);
      BOOST_TEST(written == expected, fmt::format("{}: the header lists {}, algorithms_for() {}",
                                                  to_string(c), written, expected));
      // Which groups say "commutative ops only": exactly the algorithms that lose rank order.
      for (const std::string& group : split(sentence, ';')) {
        const bool commutative_only = group.find("commutative ops only") != std::string::npos;
        for (const std::string& name : backticked(group)) {
          const auto a = collectives::parse_algorithm(name);
          if (!a) continue;  // reported by the comparison above
          BOOST_TEST(collectives::keeps_rank_order(c, *a) == !commutative_only,
                     fmt::format("{} {}: the header {} 'commutative ops only'", to_string(c), name,
                                 commutative_only ? "says" : "does not say"));
        }
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(readme_table_lists_every_algorithm, *boost::unit_test::precondition(readme_has_table)) {
  std::vector<std::string> seen;
  for (const std::string& raw : lines_of(*readme_table())) {
    const std::string line = trim(raw);
    if (!line.starts_with("|")) continue;
    std::vector<std::string> cells = split(line.substr(1), '|');
    BOOST_TEST_REQUIRE(cells.size() >= 2u, "README.md table row: " << line);
    std::string name = trim(cells[0]);
    std::erase(name, '`');
    if (name == "collective" || name.find_first_not_of("-: ") == std::string::npos) continue;  // header
    const auto c = collectives::parse_collective(name);
    BOOST_TEST(c.has_value(), "README.md table: unknown collective '" << name << "'");
    if (!c) continue;
    seen.push_back(name);
    const std::vector<std::string> written = backticked(cells[1]), expected = expected_names(*c);
    BOOST_TEST(written == expected, fmt::format("README.md, {}: the table lists {}, algorithms_for() {}",
                                                name, written, expected));
  }
  std::vector<std::string> all;
  for (collective c : collectives::all_collectives()) all.emplace_back(to_string(c));
  std::vector<std::string> sorted_seen = seen, sorted_all = all;
  std::sort(sorted_seen.begin(), sorted_seen.end());
  std::sort(sorted_all.begin(), sorted_all.end());
  BOOST_TEST(sorted_seen == sorted_all, fmt::format("README.md table rows {}, collectives {}", seen, all));
}

BOOST_AUTO_TEST_CASE(gallery_shows_every_algorithm) {
  const fs::path dir = source_dir / "docs/algorithms";
  const std::vector<std::string> lines = lines_of(read(dir / "README.md"));
  static const std::regex item(R"(^- \*\*([a-z_]+)\*\*:(.*)$)"), link(R"(\]\(([^)]+)\))");
  for (collective c : collectives::all_collectives()) {
    BOOST_TEST_CONTEXT(to_string(c)) {
      const std::string heading = fmt::format("## {}", to_string(c));
      auto at = std::find(lines.begin(), lines.end(), heading);
      BOOST_TEST_REQUIRE((at != lines.end()), "docs/algorithms/README.md has no '" << heading << "'");
      std::vector<std::string> listed;
      for (++at; at != lines.end() && !at->starts_with("## "); ++at) {
        std::smatch m;
        if (!std::regex_match(*at, m, item)) continue;
        listed.push_back(m[1]);
        const std::string links = m[2];
        int pictures = 0;
        for (auto l = std::sregex_iterator(links.begin(), links.end(), link); l != std::sregex_iterator();
             ++l) {
          ++pictures;
          BOOST_TEST(fs::exists(dir / (*l)[1].str()), "docs/algorithms/" << (*l)[1] << " does not exist");
        }
        BOOST_TEST(pictures > 0, m[1] << " links no picture");
      }
      const std::vector<std::string> expected = expected_names(c, false);
      BOOST_TEST(listed == expected,
                 fmt::format("{}: the gallery lists {}, algorithms_for() without vendor {}", to_string(c),
                             listed, expected));
    }
  }
}

// tests/pmpi/CMakeLists.txt runs the drop-in under `*=<name>` for every algorithm name: its list must
// hold every enumerator, so that a new algorithm is tested under the drop-in too.
BOOST_AUTO_TEST_CASE(dropin_tests_run_every_algorithm_name) {
  const std::string text = read(source_dir / "tests/pmpi/CMakeLists.txt");
  const std::size_t start = text.find("set(names ");
  BOOST_TEST_REQUIRE(start != std::string::npos, "tests/pmpi/CMakeLists.txt has no set(names ...)");
  const std::size_t end = text.find(')', start);
  std::istringstream words(text.substr(start + 10, end - start - 10));
  std::vector<std::string> listed, expected;
  for (std::string w; words >> w;) listed.push_back(w);
  for (int i = 0; i <= static_cast<int>(algorithm::scatter_recursive_doubling); ++i)
    expected.emplace_back(to_string(static_cast<algorithm>(i)));
  BOOST_TEST(listed == expected,
             fmt::format("tests/pmpi/CMakeLists.txt names {}, the enum {}", listed, expected));
}
