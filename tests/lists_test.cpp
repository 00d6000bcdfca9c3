// SPDX-License-Identifier: BSD-3-Clause
// What collectives-lists (tests/lists.cpp; the test lists.files) does not check: the names
// themselves (to_string and parse inverses over every enumerator), the build's list of names (read
// from the enum by tests/CMakeLists.txt, for the drop-in's tests) against the library's, and the
// gallery's pictures. No MPI.

#define BOOST_TEST_MODULE lists
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
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

// The names tests/CMakeLists.txt read from the enum, in its order.
std::vector<std::string> names_from_the_enum() {
  std::istringstream in(COLLECTIVES_ALGORITHM_NAMES);
  std::vector<std::string> names;
  for (std::string name; in >> name;) names.push_back(name);
  return names;
}

}  // namespace

BOOST_AUTO_TEST_CASE(names_round_trip) {
  for (collective c : collectives::all_collectives()) {
    BOOST_TEST((collectives::parse_collective(to_string(c)) == c), to_string(c));
    BOOST_TEST(!to_string(c).empty());
  }
  BOOST_TEST(collectives::all_collectives().size() ==
             static_cast<std::size_t>(collective::reduce_scatterv) + 1);
  const std::vector<std::string> names = names_from_the_enum();
  BOOST_TEST_REQUIRE(names.size() > 2u, "tests/CMakeLists.txt read no names from the enum");
  for (std::size_t i = 0; i < names.size(); ++i) {
    const auto a = static_cast<algorithm>(i);
    BOOST_TEST(to_string(a) == names[i], "enumerator " << i << " is spelt " << names[i] << " in the enum");
    BOOST_TEST((collectives::parse_algorithm(to_string(a)) == a), "algorithm " << i);
  }
  BOOST_TEST(to_string(static_cast<algorithm>(names.size())) == "(not an algorithm)");
  BOOST_TEST(!collectives::parse_algorithm("Ring"));
  BOOST_TEST(!collectives::parse_collective(""));
}

// The enum's names are the library's: automatic, and every algorithm some collective has. So the
// drop-in's tests (tests/pmpi) run under every algorithm, and the enum has none without a descriptor.
BOOST_AUTO_TEST_CASE(the_enum_names_every_algorithm_of_the_library) {
  std::vector<std::string> library{"automatic"};
  for (collective c : collectives::all_collectives())
    for (algorithm a : collectives::algorithms_for(c))
      if (std::find(library.begin(), library.end(), to_string(a)) == library.end())
        library.emplace_back(to_string(a));
  std::vector<std::string> from_enum = names_from_the_enum();
  std::sort(library.begin(), library.end());
  std::sort(from_enum.begin(), from_enum.end());
  BOOST_TEST(from_enum == library, fmt::format("the enum {}, the registry's {}", from_enum, library));
}

BOOST_AUTO_TEST_CASE(gallery_pictures_exist) {
  const fs::path dir = source_dir / "docs/algorithms";
  std::ifstream in(dir / "README.md");
  BOOST_TEST_REQUIRE(in.good(), "cannot read docs/algorithms/README.md");
  static const std::regex item(R"(^- \*\*([a-z_]+)\*\*:(.*)$)"), link(R"(\]\(([^)]+)\))");
  int items = 0;
  for (std::string line; std::getline(in, line);) {
    std::smatch m;
    if (!std::regex_match(line, m, item)) continue;
    ++items;
    const std::string links = m[2];
    int pictures = 0;
    for (auto l = std::sregex_iterator(links.begin(), links.end(), link); l != std::sregex_iterator(); ++l) {
      ++pictures;
      BOOST_TEST(fs::exists(dir / (*l)[1].str()), "docs/algorithms/" << (*l)[1] << " does not exist");
    }
    BOOST_TEST(pictures > 0, m[1] << " links no picture");
  }
  BOOST_TEST(items > 0, "docs/algorithms/README.md lists no algorithm");
}
