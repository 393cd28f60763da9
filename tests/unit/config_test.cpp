// The coupling configuration: the examples, defaults, every kind of error with its
// exact message, the writer's round trip, the reference page and the namcouple importer.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <regex>
#include <tuple>

#include "config/config.hpp"
#include "config/grid_checks.hpp"
#include "config/namcouple/namcouple.hpp"
#include "config/reference.hpp"
#include "config/rules.hpp"
#include "config/scalar.hpp"
#include "config/schema.hpp"
#include "config/suggest.hpp"
#include "config/writer.hpp"
#include "io/netcdf_file.hpp"
#include "test_support.hpp"

using ferry::ConservativeNormalisation;
using ferry::BadWeightIndex;
using ferry::Conserve;
using ferry::Errc;
using ferry::MapOn;
using ferry::RemapMode;
using ferry::SumMethod;
using ferry_test::expect_error;
using namespace ferry::config;

namespace {

const std::string kSource = FERRY_TEST_SOURCE_DIR;

// A valid file with one exchange; `extra` is appended to that exchange.
std::string one_exchange(const std::string& extra = "") {
  return "version: 1\n"
         "run: {length: 100}\n"
         "exchanges:\n"
         "  - name: sst\n"
         "    source: {component: ocean, field: t}\n"
         "    target: {component: atmosphere, field: sst}\n"
         "    period: 10\n" +
         extra;
}

// The first problem of `yaml` matches `pattern`; a pattern anchored at the end may be
// followed by the count of the other problems (a file without exchanges, say).
void expect_parse_error(const std::string& yaml, const std::string& pattern) {
  const bool anchored = !pattern.empty() && pattern.back() == '$';
  const std::string first =
      anchored ? pattern.substr(0, pattern.size() - 1) +
                     R"(( \(and [0-9]+ more problems?: `ferry validate c\.yaml` lists them all\))?$)"
               : pattern;
  expect_error([&] { parse_config(yaml, "c.yaml"); }, Errc::Arg, first);
}

void expect_same(const Config& a, const Config& b) {
  EXPECT_EQ(a.version, b.version);
  EXPECT_EQ(a.start, b.start);
  EXPECT_EQ(a.length, b.length);
  EXPECT_EQ(a.components, b.components);
  EXPECT_EQ(a.output_directory, b.output_directory);
  EXPECT_EQ(a.timers, b.timers);
  EXPECT_EQ(a.imbalance_timer, b.imbalance_timer);
  EXPECT_EQ(a.watchdog_seconds, b.watchdog_seconds);
  EXPECT_EQ(a.collective_seconds, b.collective_seconds);
  ASSERT_EQ(a.exchanges.size(), b.exchanges.size());
  for (std::size_t i = 0; i < a.exchanges.size(); ++i) {
    const ExchangeConfig& x = a.exchanges[i];
    const ExchangeConfig& y = b.exchanges[i];
    EXPECT_EQ(x.name, y.name);
    EXPECT_EQ(x.source.component, y.source.component);
    EXPECT_EQ(x.source.fields, y.source.fields);
    EXPECT_EQ(x.target.component, y.target.component);
    EXPECT_EQ(x.target.fields, y.target.fields);
    EXPECT_EQ(x.period, y.period);
    EXPECT_EQ(x.lag, y.lag);
    EXPECT_EQ(x.sequence, y.sequence);
    EXPECT_EQ(x.transform, y.transform);
    EXPECT_EQ(x.engine, y.engine);
    EXPECT_EQ(x.engine_options, y.engine_options);
    EXPECT_EQ(x.output, y.output);
    EXPECT_EQ(x.restart, y.restart);
    const RegridConfig& r = x.regrid;
    const RegridConfig& q = y.regrid;
    EXPECT_EQ(r.source, q.source);
    EXPECT_EQ(r.weights, q.weights);
    EXPECT_EQ(r.neighbours, q.neighbours);
    EXPECT_EQ(r.variance, q.variance);
    EXPECT_EQ(r.gaussian_scale, q.gaussian_scale);
    EXPECT_EQ(r.masked_neighbours, q.masked_neighbours);
    EXPECT_EQ(r.periodic, q.periodic);
    EXPECT_EQ(r.normalisation, q.normalisation);
    EXPECT_EQ(r.unmapped, q.unmapped);
    EXPECT_EQ(r.order, q.order);
    EXPECT_EQ(r.map_on, q.map_on);
    EXPECT_EQ(r.mode, q.mode);
    EXPECT_EQ(r.fill, q.fill);
    EXPECT_EQ(r.conservation, q.conservation);
    EXPECT_EQ(r.sum, q.sum);
  }
  ASSERT_EQ(a.grids.size(), b.grids.size());
  for (std::size_t i = 0; i < a.grids.size(); ++i) {
    EXPECT_EQ(a.grids[i].name, b.grids[i].name);
    EXPECT_EQ(a.grids[i].file, b.grids[i].file);
    EXPECT_EQ(a.grids[i].format, b.grids[i].format);
    EXPECT_EQ(a.grids[i].mask, b.grids[i].mask);
  }
}

}  // namespace

TEST(Config, ReadsTheFullExample) {
  const Config c = load_config(kSource + "/examples/config/ocean_atmosphere.yaml");
  EXPECT_EQ(c.length, 864000);
  EXPECT_EQ(c.components, (std::vector<std::string>{"ocean", "atmosphere", "river"}));
  ASSERT_EQ(c.exchanges.size(), 3u);
  const ExchangeConfig& fluxes = c.exchanges[1];
  EXPECT_EQ(fluxes.name, "surface_fluxes");
  EXPECT_EQ(fluxes.source.component, "atmosphere");
  EXPECT_EQ(fluxes.source.fields, (std::vector<std::string>{"net_heat_flux", "fresh_water_flux"}));
  EXPECT_EQ(fluxes.target.fields, (std::vector<std::string>{"qns", "emp"}));
  EXPECT_EQ(fluxes.period, 3600);
  EXPECT_EQ(fluxes.lag, 1800);
  EXPECT_EQ(fluxes.sequence, 1);
  EXPECT_EQ(fluxes.transform, Transform::Accumulate);
  EXPECT_EQ(fluxes.restart, "fluxes_restart.nc");
  EXPECT_EQ(fluxes.where.line, 23);
  const ExchangeConfig& runoff = c.exchanges[2];
  EXPECT_EQ(runoff.engine, "adaptive");
  EXPECT_EQ(runoff.engine_options, (std::map<std::string, std::string>{{"samples", "5"}}));
  EXPECT_TRUE(c.exchanges[0].output);
  EXPECT_EQ(c.output_directory, "coupling_output");
  EXPECT_EQ(c.watchdog_seconds, 300);
  EXPECT_EQ(c.collective_seconds, 900);
  EXPECT_EQ(c.path, kSource + "/examples/config/ocean_atmosphere.yaml");
}

TEST(Config, AbsentKeysTakeTheDefaultsOfTheDataModel) {
  const Config c = load_config(kSource + "/examples/config/minimal.yaml");
  const Config defaults;
  const ExchangeConfig exchange_defaults;
  EXPECT_EQ(c.start, defaults.start);
  EXPECT_TRUE(c.components.empty());
  EXPECT_EQ(c.output_directory, defaults.output_directory);
  EXPECT_EQ(c.timers, defaults.timers);
  EXPECT_FALSE(c.imbalance_timer);
  EXPECT_EQ(c.watchdog_seconds, defaults.watchdog_seconds);
  EXPECT_EQ(c.collective_seconds, defaults.collective_seconds);
  ASSERT_EQ(c.exchanges.size(), 1u);
  const ExchangeConfig& x = c.exchanges[0];
  EXPECT_EQ(x.name, "sst->sst");
  EXPECT_EQ(x.lag, exchange_defaults.lag);
  EXPECT_EQ(x.sequence, exchange_defaults.sequence);
  EXPECT_EQ(x.transform, exchange_defaults.transform);
  EXPECT_EQ(x.engine, exchange_defaults.engine);
  EXPECT_TRUE(x.engine_options.empty());
  EXPECT_EQ(x.output, exchange_defaults.output);
  EXPECT_EQ(x.restart, exchange_defaults.restart);
}

TEST(Config, AcceptsSignsExponentsAndEveryTransformAndEngine) {
  for (const Transform t : kTransforms)
    EXPECT_EQ(parse_config(one_exchange("    transform: " + std::string(transform_name(t)) + "\n"),
                           "c.yaml")
                  .exchanges[0]
                  .transform,
              t);
  // Every engine that can serve put/get (see Rules.* for the others).
  for (const auto& engine : ferry::engine_names())
    if (ferry::engine_capabilities(engine).independent_sides)
      EXPECT_EQ(
          parse_config(one_exchange("    engine: " + engine + "\n"), "c.yaml").exchanges[0].engine,
          engine);
  const Config c = parse_config(one_exchange("    lag: +2.5e0\n"), "c.yaml");
  EXPECT_EQ(c.exchanges[0].lag, 2.5);
}

TEST(Config, ReadsConservativeMethodAndItsNormalisation) {
  const RegridConfig plain =
      parse_config(one_exchange("    method: {name: conservative}\n"), "c.yaml").exchanges[0].regrid;
  EXPECT_EQ(plain.source, WeightSource::Conservative);
  EXPECT_EQ(plain.normalisation, ferry::ConservativeNormalisation::FracArea);
  const RegridConfig dest =
      parse_config(one_exchange("    method: {name: conservative, normalisation: destarea}\n"), "c.yaml")
          .exchanges[0]
          .regrid;
  EXPECT_EQ(dest.normalisation, ferry::ConservativeNormalisation::DestArea);
  expect_parse_error(one_exchange("    method: {name: conservative, normalisation: area}\n"),
                     R"(^c\.yaml:8:49: normalisation must be one of fracarea, destarea; got "area")");
}

TEST(Config, ReadsConservativeOrder) {
  EXPECT_EQ(parse_config(one_exchange("    method: {name: conservative}\n"), "c.yaml")
                .exchanges[0]
                .regrid.order,
            1);
  EXPECT_EQ(parse_config(one_exchange("    method: {name: conservative, order: 2}\n"), "c.yaml")
                .exchanges[0]
                .regrid.order,
            2);
  expect_parse_error(one_exchange("    method: {name: conservative, order: 3}\n"),
                     R"(^c\.yaml:8:41: order must be an integer, 1 or 2; got "3")");
}

TEST(Config, ReadsBicubic) {
  const RegridConfig r =
      parse_config(one_exchange("    method: {name: bicubic, periodic: false, unmapped: nearest}\n"),
                   "c.yaml")
          .exchanges[0]
          .regrid;
  EXPECT_EQ(r.source, WeightSource::Bicubic);
  EXPECT_FALSE(r.periodic);
  EXPECT_EQ(r.unmapped, ferry::Unmapped::Nearest);
  EXPECT_STREQ(method_name(r.source), "bicubic");
  EXPECT_EQ(parse_config(one_exchange("    method: {name: bilinear, unmapped: four_nearest}\n"),
                         "c.yaml")
                .exchanges[0]
                .regrid.unmapped,
            ferry::Unmapped::FourNearest);
  expect_parse_error(one_exchange("    method: {name: bicubic, order: 2}\n"), R"(order)");
}

TEST(Config, ReadsMaskedNeighbours) {
  const auto masked = [](const std::string& method) {
    return parse_config(one_exchange("    method: " + method + "\n"), "c.yaml")
        .exchanges[0]
        .regrid.masked_neighbours;
  };
  EXPECT_EQ(masked("{name: nearest}"), ferry::MaskedNeighbours::Skipped);
  EXPECT_EQ(masked("{name: nearest, masked_neighbours: drop}"), ferry::MaskedNeighbours::Dropped);
  expect_parse_error(one_exchange("    method: {name: nearest, masked_neighbours: maybe}\n"),
                     R"(masked_neighbours)");
  EXPECT_EQ(masked("{name: nearest, masked_neighbours: drop_no_fill}"),
            ferry::MaskedNeighbours::DroppedNoFill);
  EXPECT_EQ(masked("{name: gaussian, gaussian_scale: neighbours, masked_neighbours: drop}"),
            ferry::MaskedNeighbours::Dropped);
  expect_parse_error(one_exchange("    method: {name: bilinear, masked_neighbours: drop}\n"),
                     R"(masked_neighbours)");
}

TEST(Config, ReadsGaussianScale) {
  const auto scale = [](const std::string& method) {
    return parse_config(one_exchange("    method: " + method + "\n"), "c.yaml")
        .exchanges[0]
        .regrid.gaussian_scale;
  };
  EXPECT_EQ(scale("{name: gaussian}"), ferry::GaussianScale::SourceSpacing);
  EXPECT_EQ(scale("{name: gaussian, gaussian_scale: neighbours}"),
            ferry::GaussianScale::NeighbourSpacing);
  expect_parse_error(one_exchange("    method: {name: gaussian, gaussian_scale: pairs}\n"),
                     R"(gaussian_scale)");
  expect_parse_error(one_exchange("    method: {name: nearest, gaussian_scale: neighbours}\n"),
                     R"(gaussian_scale)");
}

TEST(ConfigErrors, UnknownKeySuggestsTheClosest) {
  expect_parse_error(one_exchange("    enigne: p2p\n"),
                     R"(^c\.yaml:8:5: unknown key "enigne" in exchange "sst"; did you mean "engine"\?$)");
  expect_parse_error("version: 1\nrun: {lenght: 5}\n",
                     R"(^c\.yaml:2:7: unknown key "lenght" in run; did you mean "length"\?$)");
  expect_parse_error(one_exchange("    frobnicate: 1\n"),
                     R"(^c\.yaml:8:5: unknown key "frobnicate" in exchange "sst"; valid keys: name, )"
                     R"(source, target, period, lag, sequence, transform, engine, engine_options, )"
                     R"(output, check_in, check_out, source_factor, source_offset, target_factor, )"
                     R"(target_offset, restart, weights, bad_weight_index, method, map_on, mode, fill, conservation, sum$)");
}

TEST(Config, ImbalanceTimerIsAnOutputSwitchThatRoundTrips) {
  const std::string yaml = one_exchange("") + "output: {timers: true, imbalance: true}\n";
  const Config c = parse_config(yaml, "c.yaml");
  EXPECT_TRUE(c.imbalance_timer);
  EXPECT_TRUE(parse_config(format_config(c), "written.yaml").imbalance_timer);
  expect_parse_error(one_exchange("") + "output: {imbalance: 1}\n",
                     R"(^c\.yaml:8:21: imbalance must be true or false; got "1"$)");
  expect_parse_error(one_exchange("") + "output: {imbalanse: true}\n",
                     R"(^c\.yaml:8:10: unknown key "imbalanse" in output; did you mean "imbalance"\?$)");
  expect_parse_error(one_exchange("") + "output: {frobnicate: true}\n",
                     R"(^c\.yaml:8:10: unknown key "frobnicate" in output; valid keys: directory, )"
                     R"(timers, imbalance$)");
}

// A file with buffers only: a time series from one component to another.
std::string one_buffer(const std::string& extra = "") {
  return "version: 1\n"
         "run: {length: 100}\n"
         "buffers:\n"
         "  - name: history\n"
         "    source: {component: ocean, field: t}\n"
         "    target: {component: atmosphere, field: t_in}\n"
         "    capacity: 4\n" +
         extra;
}

TEST(Config, BuffersParseWithDefaultsAndRoundTrip) {
  const Config c = parse_config(one_buffer(), "c.yaml");
  EXPECT_TRUE(c.exchanges.empty());
  ASSERT_EQ(c.buffers.size(), 1u);
  const BufferConfig& b = c.buffers[0];
  EXPECT_EQ(b.name, "history");
  EXPECT_EQ(b.source.component, "ocean");
  EXPECT_EQ(b.source.fields, std::vector<std::string>{"t"});
  EXPECT_EQ(b.target.component, "atmosphere");
  EXPECT_EQ(b.target.fields, std::vector<std::string>{"t_in"});
  EXPECT_EQ(b.capacity, 4);
  EXPECT_FALSE(b.lossy);
  EXPECT_EQ(b.where.line, 4);
  EXPECT_EQ(b.where.column, 5);
  const Config lossy = parse_config(one_buffer("    mode: lossy\n"), "c.yaml");
  EXPECT_TRUE(lossy.buffers[0].lossy);
  const Config back = parse_config(format_config(lossy), "written.yaml");
  ASSERT_EQ(back.buffers.size(), 1u);
  EXPECT_EQ(back.buffers[0].name, "history");
  EXPECT_EQ(back.buffers[0].source.fields, lossy.buffers[0].source.fields);
  EXPECT_EQ(back.buffers[0].target.component, "atmosphere");
  EXPECT_EQ(back.buffers[0].capacity, 4);
  EXPECT_TRUE(back.buffers[0].lossy);
}

TEST(ConfigErrors, BuffersSayWhatIsWrong) {
  expect_parse_error(one_buffer("    mode: lossles\n"),
                     R"(^c\.yaml:8:11: mode must be one of lossless, lossy; got "lossles")");
  expect_parse_error(one_buffer("    capasity: 2\n"),
                     R"(^c\.yaml:8:5: unknown key "capasity" in buffer "history"; did you mean )"
                     R"("capacity"\?$)");
  expect_parse_error(one_buffer("    frobnicate: 1\n"),
                     R"(^c\.yaml:8:5: unknown key "frobnicate" in buffer "history"; valid keys: )"
                     R"(name, source, target, capacity, mode$)");
  expect_parse_error(one_buffer() + "  - name: history\n    source: {component: a, field: x}\n"
                                    "    target: {component: b, field: y}\n    capacity: 1\n",
                     R"(^c\.yaml:8:11: duplicate buffer name "history" \(first at line 4\); give )"
                     R"(each buffer its own name$)");
  expect_parse_error("version: 1\nrun: {length: 1}\nbuffers:\n  - name: b\n"
                     "    source: {component: a, field: x}\n"
                     "    target: {component: a, field: y}\n    capacity: 1\n",
                     R"(^c\.yaml:6:25: the source and target of buffer "b" are both component "a"; )"
                     R"(a buffer connects two components on disjoint ranks)");
  expect_parse_error(one_buffer().replace(one_buffer().find("capacity: 4"), 11, "capacity: 0"),
                     R"(^c\.yaml:7:15: capacity must be an integer > 0; got "0"$)");
}

TEST(ConfigErrors, WrongTypeSaysWhatIsExpected) {
  const std::string base = "version: 1\nrun: {length: 100}\nexchanges:\n  - name: sst\n"
                           "    source: {component: ocean, field: t}\n"
                           "    target: {component: atmosphere, field: sst}\n";
  expect_parse_error(base + "    period: 1h\n",
                     R"(^c\.yaml:7:13: period must be a number of seconds > 0; got "1h"$)");
  expect_parse_error(base + "    period: 0\n",
                     R"(^c\.yaml:7:13: period must be a number of seconds > 0; got "0"$)");
  expect_parse_error(base + "    period: .inf\n",
                     R"(^c\.yaml:7:13: period must be a number of seconds > 0; got "\.inf"$)");
  expect_parse_error(base + "    period: [1]\n",
                     R"(^c\.yaml:7:13: period must be a number of seconds > 0; got a list$)");
  expect_parse_error(base + "    period:\n",
                     R"(^c\.yaml:7:5: period must be a number of seconds > 0; got nothing$)");
  expect_parse_error(one_exchange("    lag: -5\n"),
                     R"(^c\.yaml:8:10: lag must be a number of seconds >= 0; got "-5"$)");
  expect_parse_error(one_exchange("    sequence: 1.5\n"),
                     R"(^c\.yaml:8:15: sequence must be an integer >= 0; got "1\.5"$)");
  expect_parse_error(one_exchange("    sequence: 4294967296\n"),
                     R"(^c\.yaml:8:15: sequence must be an integer >= 0; got "4294967296"$)");
  expect_parse_error(one_exchange("    output: yes\n"),
                     R"(^c\.yaml:8:13: output must be true or false; got "yes"$)");
  expect_parse_error(one_exchange("    engine_options: {reorder: [1]}\n"),
                     R"(^c\.yaml:8:31: engine_options "reorder" must be a single value \(text, )"
                     R"(number or true/false\); got a list$)");
  expect_parse_error("version: 1\nrun: {length: 0}\n",
                     R"(^c\.yaml:2:15: length must be a number of seconds > 0; got "0"$)");
  expect_parse_error("version: 1\nrun: 5\n",
                     R"(^c\.yaml:2:6: run must be a mapping of keys to values; got "5"$)");
  expect_parse_error("version: 1\nrun: {length: 1}\nexchanges: []\n",
                     R"(^c\.yaml:3:12: exchanges must be a list of entries, each a mapping; got )"
                     R"(an empty list$)");
  expect_parse_error("version: 1\nrun: {length: 1}\nexchanges: [sst]\n",
                     R"(^c\.yaml:3:13: entry 1 of exchanges must be a mapping of keys to values; )"
                     R"(got "sst"$)");
  expect_parse_error("- version: 1\n",
                     R"(^c\.yaml:1:1: a configuration is a mapping of keys to values, starting )"
                     R"(with "version: 1"; got a list$)");
}

TEST(ConfigErrors, ValueNotAllowedListsTheChoices) {
  expect_parse_error(one_exchange("    transform: avrage\n"),
                     R"(^c\.yaml:8:16: transform must be one of instant, accumulate, average, )"
                     R"(min, max; got "avrage"; did you mean "average"\?$)");
  expect_parse_error(one_exchange("    engine: neighbour\n"),
                     R"(^c\.yaml:8:13: engine must be one of auto, p2p, .*; got "neighbour")");
  expect_parse_error(one_exchange("    engine: quantum\n"),
                     R"(^c\.yaml:8:13: engine must be one of auto, p2p, [a-z, ]*; got "quantum"$)");
}

TEST(ConfigErrors, MissingRequiredKeys) {
  expect_parse_error("version: 1\nrun:\n  start: 0\n",
                     R"(^c\.yaml:3:3: missing key "length" \(a number of seconds > 0\) in run$)");
  expect_parse_error("version: 1\nrun: {length: 1}\n",
                     R"(^c\.yaml:1:1: missing key "exchanges" \(a list of entries, each a )"
                     R"(mapping\) at the top level; give "exchanges", "buffers" or both$)");
  expect_parse_error("version: 1\nrun: {length: 1}\nexchanges:\n  - name: x\n"
                     "    source: {component: a}\n    target: {component: b, field: y}\n"
                     "    period: 1\n",
                     R"(^c\.yaml:5:13: missing key "field" or "fields" in the source of )"
                     R"(exchange "x"$)");
  expect_parse_error("version: 1\nrun: {length: 1}\nexchanges:\n  - name: x\n"
                     "    source: {component: a, field: x, fields: [y]}\n"
                     "    target: {component: b, field: y}\n    period: 1\n",
                     R"(^c\.yaml:5:38: give either "field" or "fields" in the source of )"
                     R"(exchange "x", not both$)");
}

TEST(ConfigErrors, VersionMustBeOne) {
  expect_parse_error("run: {length: 1}\n",
                     R"(^c\.yaml:1:1: missing key "version" at the top level: this ferry reads )"
                     R"(version 1, so start the file with "version: 1"$)");
  // Checked first: the unknown key of a later version is not what is reported.
  expect_parse_error("run: {length: 1}\nversion: 2\nfuture_key: 1\n",
                     R"(^c\.yaml:2:10: version must be 1; got "2": this ferry reads version 1$)");
}

TEST(ConfigErrors, DuplicateNamesAndKeys) {
  const std::string second = "  - name: sst\n    source: {component: ocean, field: u}\n"
                             "    target: {component: atmosphere, field: v}\n    period: 10\n";
  expect_parse_error(one_exchange() + second,
                     R"(^c\.yaml:8:11: duplicate exchange name "sst" \(first at line 4\); give )"
                     R"(each exchange its own name$)");
  expect_parse_error("version: 1\nrun: {length: 1}\nrun: {length: 2}\n",
                     R"(^c\.yaml:3:1: duplicate key "run" at the top level \(first at line 2\)$)");
  expect_parse_error("version: 1\nrun: {length: 1}\ncomponents: [a, b, a]\n",
                     R"(^c\.yaml:3:20: "a" appears twice in components \(first at line 3\); list )"
                     R"(each name once$)");
}

TEST(ConfigErrors, SourceAndTargetNeedTheSameNumberOfFields) {
  expect_parse_error("version: 1\nrun: {length: 1}\nexchanges:\n  - name: x\n"
                     "    source: {component: a, fields: [u, v]}\n"
                     "    target: {component: b, field: w}\n    period: 1\n",
                     R"(^c\.yaml:6:13: the source of exchange "x" has 2 fields \(u, v\) but the )"
                     R"(target has 1 \(w\); fields are matched in order, so give both the same )"
                     R"(number$)");
}

TEST(ConfigErrors, ComponentsMustBeListed) {
  expect_parse_error("version: 1\nrun: {length: 1}\ncomponents: [ocean, atmosphere]\nexchanges:\n"
                     "  - name: x\n    source: {component: ocen, field: u}\n"
                     "    target: {component: atmosphere, field: w}\n    period: 1\n",
                     R"(^c\.yaml:6:25: unknown component "ocen" in the source of exchange "x"; )"
                     R"(did you mean "ocean"\? \(components: ocean, atmosphere\)$)");
}

TEST(ConfigErrors, SyntaxErrorsAndDocuments) {
  expect_parse_error("version: 1\nrun: {length: 10\n",
                     R"(^c\.yaml:\d+:\d+: YAML syntax error: a '\{' is never closed: add the )"
                     R"(matching '\}'$)");
  // yaml-cpp 0.7 loops forever on a ',' that starts a document; ferry reports it.
  expect_parse_error("# comment\n, x\nversion: 1\n",
                     R"(^c\.yaml:2:1: YAML syntax error: a ',' outside \[ \] or \{ \}$)");
  expect_parse_error("", R"(^c\.yaml:1:1: the file holds no configuration; it starts with )"
                         R"("version: 1"$)");
  expect_parse_error("version: 1\n---\nversion: 1\n",
                     R"(^c\.yaml:3:1: a second YAML document starts here; keep one configuration )"
                     R"(per file$)");
  expect_error([] { load_config("no/such/config.yaml"); }, Errc::Io,
               R"(^load_config: cannot open the configuration file "no/such/config\.yaml": )");
}

TEST(Config, ErrorsComeInDocumentOrder) {
  // Two problems: the one written first is reported, every time.
  const std::string yaml = one_exchange("    period2: 1\n    transform: avrage\n");
  for (int i = 0; i < 3; ++i)
    expect_parse_error(yaml, R"(^c\.yaml:8:5: unknown key "period2")");
}

TEST(Config, WriterRoundTrips) {
  for (const char* file : {"ocean_atmosphere.yaml", "minimal.yaml"}) {
    const Config c = load_config(kSource + "/examples/config/" + file);
    expect_same(parse_config(format_config(c), "written.yaml"), c);
  }
  // Every regrid key, away from its default where it has one.
  const auto regridded = [](const std::string& name, const std::string& keys) {
    return "  - name: " + name + "\n    source: {component: o, field: " + name +
           "}\n    target: {component: a, field: " + name + "}\n    period: 10\n" + keys;
  };
  const Config c = parse_config(
      "version: 1\nrun: {length: 100}\nexchanges:\n" +
          regridded("w", "    weights: rmp o.nc\n    map_on: src\n    mode: sum\n    fill: "
                         "-1e+20\n    conservation: basin_positive\n    sum: ddpdd\n") +
          regridded("g", "    method: {name: gaussian, neighbours: 9, variance: 2.5}\n") +
          regridded("b", "    method: {name: bilinear, periodic: false}\n    conservation: "
                         "global\n") +
          regridded("c", "    method: {name: conservative, normalisation: destarea}\n") +
          regridded("s", "    method: {name: conservative, order: 2}\n") +
          regridded("bc", "    method: {name: bicubic, periodic: false, unmapped: nearest}\n") +
          regridded("n", "    method: {name: nearest}\n    sum: gather\n"),
      "regridded.yaml");
  expect_same(parse_config(format_config(c), "written.yaml"), c);
  EXPECT_EQ(yaml_scalar("ocean"), "ocean");
  EXPECT_EQ(yaml_scalar("sst->sst"), "sst->sst");
  EXPECT_EQ(yaml_scalar("true"), "\"true\"");
  EXPECT_EQ(yaml_scalar("12"), "\"12\"");
  EXPECT_EQ(yaml_scalar("a: b"), "\"a: b\"");
  EXPECT_EQ(yaml_scalar("say \"hi\"\n"), "\"say \\\"hi\\\"\\n\"");
}

TEST(Config, SchemaDefaultsParseAndEveryKeyIsDocumented) {
  const Key schema = config_schema();
  std::vector<const Key*> keys{&schema};
  for (std::size_t i = 0; i < keys.size(); ++i)
    for (const Key& child : keys[i]->children) keys.push_back(&child);
  const std::string reference = config_reference();
  for (const Key* key : keys) {
    if (key == &schema) continue;
    EXPECT_FALSE(key->doc.empty()) << key->name;
    EXPECT_NE(reference.find("| `" + key->name + "` |"), std::string::npos) << key->name;
    if (key->presence != Presence::Optional || key->default_value.empty()) continue;
    if (key->type == KeyType::Number)
      EXPECT_TRUE(detail::parse_number(key->default_value)) << key->name;
    if (key->type == KeyType::Integer)
      EXPECT_TRUE(detail::parse_integer(key->default_value)) << key->name;
    if (key->type == KeyType::Boolean)
      EXPECT_TRUE(detail::parse_boolean(key->default_value)) << key->name;
  }
  EXPECT_NO_THROW(parse_config(config_reference_example(), "example.yaml"));
}

TEST(Config, ScalarsAreStrict) {
  EXPECT_EQ(detail::parse_number("+3600"), 3600.0);
  EXPECT_EQ(detail::parse_number("1e3"), 1000.0);
  EXPECT_FALSE(detail::parse_number("0x10"));
  EXPECT_FALSE(detail::parse_number("nan"));
  EXPECT_FALSE(detail::parse_number("1e999"));
  EXPECT_FALSE(detail::parse_number("3600s"));
  EXPECT_FALSE(detail::parse_number(""));
  EXPECT_EQ(detail::parse_integer("-2"), -2);
  EXPECT_FALSE(detail::parse_integer("2.0"));
  EXPECT_FALSE(detail::parse_integer("+-2"));
  EXPECT_FALSE(detail::parse_boolean("yes"));
  EXPECT_EQ(detail::format_number(3600), "3600");
  EXPECT_EQ(detail::format_number(0.5), "0.5");
}

TEST(Config, SuggestionsNeedACloseMatch) {
  EXPECT_EQ(detail::edit_distance("enigne", "engine"), 1u);
  EXPECT_EQ(detail::edit_distance("Period", "period"), 0u);
  EXPECT_EQ(detail::edit_distance("", "lag"), 3u);
  EXPECT_EQ(detail::closest_match("neighbour", {"p2p", "neighbor"}), "neighbor");
  EXPECT_EQ(detail::closest_match("zzz", {"lag", "name"}), "");
  // Ties go to the earlier candidate.
  EXPECT_EQ(detail::closest_match("mix", {"min", "max"}), "min");
}

TEST(Namcouple, ConvertsTheSupportedKeywordsAndListsTheRest) {
  const NamcoupleImport imported = load_namcouple(kSource + "/tests/data/namcouple",
                                                  {{"torc", "ocean"}, {"lmdz", "atmosphere"}});
  const Config c = parse_config(imported.yaml, "converted.yaml");
  EXPECT_EQ(c.length, 432000);
  EXPECT_EQ(c.components, (std::vector<std::string>{"ocean", "atmosphere"}));
  ASSERT_EQ(c.exchanges.size(), 4u);
  const ExchangeConfig& sst = c.exchanges[0];
  EXPECT_EQ(sst.name, "SOSSTSST->SISUTESU");
  EXPECT_EQ(sst.source.component, "ocean");
  EXPECT_EQ(sst.source.fields, (std::vector<std::string>{"SOSSTSST", "SOICECOV"}));
  EXPECT_EQ(sst.target.component, "atmosphere");
  EXPECT_EQ(sst.target.fields, (std::vector<std::string>{"SISUTESU", "SIICECOV"}));
  EXPECT_EQ(sst.period, 86400);
  EXPECT_EQ(sst.lag, 14400);
  EXPECT_EQ(sst.sequence, 1);
  EXPECT_EQ(sst.transform, Transform::Average);
  EXPECT_TRUE(sst.output);
  EXPECT_EQ(sst.restart, "sstoc.nc");
  // SCRIPR alone: OASIS maps on the source ranks, bit for bit.
  EXPECT_EQ(sst.regrid.source, WeightSource::Bilinear);
  EXPECT_TRUE(sst.regrid.periodic);
  EXPECT_EQ(sst.regrid.map_on, MapOn::Src);
  EXPECT_EQ(sst.regrid.mode, RemapMode::Bfb);
  const ExchangeConfig& flux = c.exchanges[1];
  EXPECT_EQ(flux.transform, Transform::Accumulate);
  EXPECT_EQ(flux.lag, 1800);
  EXPECT_FALSE(flux.output);
  EXPECT_EQ(flux.regrid.source, WeightSource::File);
  EXPECT_EQ(flux.regrid.weights, "rmp_lmdz_to_torc_CONSERV_FRACAREA.nc");
  EXPECT_EQ(flux.regrid.map_on, MapOn::Src);
  EXPECT_EQ(flux.regrid.mode, RemapMode::Bfb);  // opt, and the source grid is the smaller
  EXPECT_EQ(c.exchanges[2].transform, Transform::Instant);
  EXPECT_FALSE(c.exchanges[2].regrid.enabled());
  EXPECT_EQ(c.exchanges[3].transform, Transform::Max);
  EXPECT_EQ(c.exchanges[3].lag, 0);
  // BLASNEW: the factor and the CONSTANT; BLASOLD's factor 1.0 (its term is not converted).
  EXPECT_EQ(c.exchanges[3].target_scaling.factor, 2.0);
  EXPECT_EQ(c.exchanges[3].target_scaling.offset, 273.15);
  EXPECT_TRUE(c.exchanges[3].source_scaling.identity());
  EXPECT_TRUE(c.exchanges[0].target_scaling.identity());
  EXPECT_EQ(imported.notes.differences,
            (std::vector<std::string>{
                "line 39: MAPPING rmp_lmdz_to_torc_CONSERV_FRACAREA.nc opt: written as bfb, "
                "OASIS's choice for a source grid of 6912 points and a target grid of 27118"}));
  EXPECT_EQ(imported.notes.not_converted,
            (std::vector<std::string>{
                "line 18: $NLOGPRT 1 0 (no ferry equivalent)",
                "line 48: LAG=-3600 (ferry lags are >= 0; the exchange was written without a lag)",
                "line 54: BLASOLD: COZOTAUX 1.0 (OASIS3-MCT 4.0 adds only a CONSTANT; a "
                "combination with other fields is no longer possible)",
                "line 57: SOSSTSST -> SOSSTSST with status OUTPUT (ferry converts EXPORTED and "
                "EXPOUT entries)"}));
  EXPECT_NE(imported.yaml.find("#   - Converted, but ferry does it differently:\n"
                               "#       line 39: MAPPING"),
            std::string::npos);
  EXPECT_NE(imported.yaml.find("    check_in: true\n"), std::string::npos);
  EXPECT_NE(
      imported.yaml.find("    method: {name: bilinear, unmapped: four_nearest}\n    map_on: src\n"),
      std::string::npos);
}

TEST(Namcouple, ConvertsRemappingsIntoMethodsWeightsAndConservation) {
  const NamcoupleImport imported = load_namcouple(kSource + "/tests/data/namcouple_remapping");
  const Config c = parse_config(imported.yaml, "converted.yaml");
  ASSERT_EQ(c.exchanges.size(), 8u);
  const auto regrid = [&](std::size_t i) { return c.exchanges[i].regrid; };
  EXPECT_EQ(regrid(0).source, WeightSource::Nearest);
  EXPECT_EQ(regrid(0).neighbours, 6);
  EXPECT_EQ(regrid(0).masked_neighbours, ferry::MaskedNeighbours::Dropped);  // SCRIP's rule
  EXPECT_NE(imported.yaml.find("method: {name: nearest, neighbours: 6, masked_neighbours: drop}"),
            std::string::npos);
  EXPECT_FALSE(regrid(0).conservation);
  EXPECT_EQ(regrid(1).source, WeightSource::Gaussian);
  EXPECT_EQ(regrid(1).neighbours, 9);
  EXPECT_EQ(regrid(1).variance, 2.5);
  EXPECT_EQ(regrid(1).gaussian_scale, ferry::GaussianScale::NeighbourSpacing);  // UG4's
  EXPECT_EQ(regrid(1).masked_neighbours, ferry::MaskedNeighbours::Dropped);
  EXPECT_EQ(regrid(1).conservation, Conserve::GlobalPositive);
  EXPECT_EQ(regrid(1).sum, SumMethod::Lsum8);
  EXPECT_EQ(regrid(2).source, WeightSource::Bilinear);
  EXPECT_FALSE(regrid(2).periodic);
  EXPECT_EQ(regrid(2).map_on, MapOn::Dst);
  EXPECT_EQ(regrid(2).mode, RemapMode::Sum);
  EXPECT_EQ(regrid(2).conservation, Conserve::BasinBalance);
  EXPECT_EQ(regrid(2).sum, SumMethod::Gather);  // OASIS's bfb gathers to one rank
  EXPECT_EQ(regrid(3).source, WeightSource::Conservative);
  EXPECT_EQ(regrid(3).normalisation, ConservativeNormalisation::FracArea);
  EXPECT_EQ(regrid(3).unmapped, ferry::Unmapped::Nearest);  // FRACNNEI
  EXPECT_EQ(regrid(3).map_on, MapOn::Src);
  EXPECT_EQ(regrid(3).mode, RemapMode::Sum);  // opt: the source grid is the larger
  EXPECT_EQ(regrid(3).order, 1);
  EXPECT_EQ(regrid(4).source, WeightSource::Bicubic);  // BICUBIC: gradients computed
  EXPECT_TRUE(regrid(4).periodic);
  EXPECT_EQ(regrid(4).unmapped, ferry::Unmapped::FourNearest);  // SCRIP's 4-nearest fill
  EXPECT_EQ(regrid(4).map_on, MapOn::Src);
  EXPECT_EQ(regrid(4).conservation, Conserve::Global);
  EXPECT_EQ(regrid(4).sum, SumMethod::Lsum16);
  EXPECT_EQ(regrid(5).source, WeightSource::Conservative);  // CONSERV ... SECOND
  EXPECT_EQ(regrid(5).order, 2);
  EXPECT_EQ(regrid(5).normalisation, ConservativeNormalisation::DestArea);
  EXPECT_EQ(regrid(5).unmapped, ferry::Unmapped::Fill);
  EXPECT_EQ(regrid(5).map_on, MapOn::Src);
  EXPECT_NE(imported.yaml.find("method: {name: bicubic, unmapped: four_nearest}"),
            std::string::npos);
  EXPECT_NE(imported.yaml.find("method: {name: conservative, normalisation: destarea, order: 2}"),
            std::string::npos);
  EXPECT_FALSE(regrid(6).enabled());
  EXPECT_EQ(regrid(7).source, WeightSource::File);
  EXPECT_EQ(regrid(7).mode, RemapMode::Bfb);
  EXPECT_EQ(imported.notes.differences,
            (std::vector<std::string>{
                "line 21: MAPPING w.nc: OASIS keeps the weights of the SCRIPR above in this file; "
                "ferry computes them when the coupler starts (to use the file, replace `method` "
                "by `weights: w.nc`)",
                "line 27: MAPPING c.nc: OASIS keeps the weights of the SCRIPR above in this file; "
                "ferry computes them when the coupler starts (to use the file, replace `method` "
                "by `weights: c.nc`)",
                "line 27: MAPPING c.nc opt: written as sum, OASIS's choice for a source grid of "
                "100 points and a target grid of 20",
                "line 32: MAPPING bicubic.nc: OASIS keeps the weights of the SCRIPR above in this "
                "file; ferry computes them when the coupler starts (to use the file, replace "
                "`method` by `weights: bicubic.nc`)",
                "line 45: MAPPING m.nc opt: written as bfb; OASIS takes sum when the source grid "
                "has more points than the target, and the entry gives no grid sizes"}));
  EXPECT_EQ(imported.notes.not_converted,
            (std::vector<std::string>{
                "line 41: CONSERV: BASPOS bfb (ferry corrects regridded exchanges only, and none "
                "of this entry's remapping was converted)"}));
}

TEST(Namcouple, NamesComponentsAfterGridsUnlessMapped) {
  const NamcoupleImport imported = import_namcouple(
      " $RUNTIME\n 100\n $END\n $STRINGS\n A B 1 10 0 r.nc EXPORTED\n go ga\n $END\n", "nc");
  const Config c = parse_config(imported.yaml, "converted.yaml");
  EXPECT_EQ(c.exchanges.at(0).source.component, "go");
  EXPECT_EQ(c.exchanges.at(0).target.component, "ga");
  EXPECT_NE(imported.yaml.find("Components are named after their grids (go, ga)"),
            std::string::npos);
  EXPECT_TRUE(imported.notes.not_converted.empty());
  EXPECT_TRUE(imported.notes.differences.empty());
}

// The NF variants of DISTWGT and GAUSWGT leave a target point whose nearest source
// points are all masked without links.
TEST(Namcouple, NoFillVariantsOfTheNeighbourMethods) {
  const auto regrid_of = [](const std::string& scripr) {
    const NamcoupleImport imported = import_namcouple(
        " $RUNTIME\n 100\n $END\n $STRINGS\n A B 1 10 1 r.nc EXPORTED\n go ga\n SCRIPR\n " +
            scripr + "\n $END\n",
        "nc");
    return parse_config(imported.yaml, "converted.yaml").exchanges.at(0).regrid;
  };
  const RegridConfig distwgt = regrid_of("DISTWGTNF LR SCALAR LATLON 1 4");
  EXPECT_EQ(distwgt.source, WeightSource::Nearest);
  EXPECT_EQ(distwgt.masked_neighbours, ferry::MaskedNeighbours::DroppedNoFill);
  const RegridConfig gauswgt = regrid_of("GAUSWGTNF U SCALAR LATLON 1 6 0.3");
  EXPECT_EQ(gauswgt.source, WeightSource::Gaussian);
  EXPECT_EQ(gauswgt.masked_neighbours, ferry::MaskedNeighbours::DroppedNoFill);
  EXPECT_EQ(gauswgt.gaussian_scale, ferry::GaussianScale::NeighbourSpacing);
  EXPECT_EQ(gauswgt.variance, 0.3);
}

TEST(Namcouple, ErrorsNameTheLine) {
  const auto expect_import_error = [](const std::string& text, const std::string& pattern,
                                      const std::map<std::string, std::string>& grids = {}) {
    expect_error(
        [&] {
          import_namcouple(text, "nc", grids);
        },
        Errc::Arg, pattern);
  };
  const std::string runtime = " $RUNTIME\n 100\n $END\n";
  expect_import_error(runtime + " $STRINGS\n A:B C 1 10 0 r.nc EXPORTED\n go ga\n $END\n",
                      R"(^nc:5: the source names 2 fields \(A:B\) but the target 1 \(C\); the )"
                      R"(lists are matched in order$)");
  expect_import_error(runtime + " $STRINGS\n A B 1 10 1 r.nc EXPORTED\n go ga\n SCRIPT\n x\n $END\n",
                      R"(^nc:7: unknown transformation "SCRIPT"; did you mean "SCRIPR"\?; )"
                      R"(OASIS3-MCT has LOCTRANS, )");
  expect_import_error(runtime + " $STRINGS\n A B 1 10 1 r.nc EXPORTED\n go ga\n LOCTRANS\n "
                                "AVERAG\n $END\n",
                      R"(^nc:8: LOCTRANS takes one of INSTANT, ACCUMUL, AVERAGE, T_MIN, T_MAX; )"
                      R"(got "AVERAG"; did you mean "AVERAGE"\?$)");
  expect_import_error(runtime + " $STRINGS\n A B 1 1h 0 r.nc EXPORTED\n go ga\n $END\n",
                      R"(^nc:5: expected the first line of a field entry)");
  expect_import_error(" $STRINGS\n A B 1 10 0 r.nc EXPORTED\n go ga\n $END\n",
                      R"(^nc: no \$RUNTIME block)");
  expect_import_error(runtime + " $STRINGS\n A B 1 10 0 r.nc EXPORTED\n go ga\n $END\n",
                      R"(^nc: grid "gx" \(given component "x"\) is not a grid of any converted )"
                      R"(entry; did you mean "go"\?; the grids are: go, ga$)",
                      {{"gx", "x"}});
  const auto entry = [&](const std::string& transformations) {
    return runtime + " $STRINGS\n A B 1 10 1 r.nc EXPORTED\n go ga\n " + transformations +
           "\n $END\n";
  };
  expect_import_error(entry("SCRIPR\n BILINEAR LR"),
                      R"(^nc:8: SCRIPR takes METHOD GRID_TYPE FIELD_TYPE RESTRICTION BINS, )");
  expect_import_error(entry("SCRIPR\n BILINEAL LR SCALAR LATLON 1"),
                      R"(^nc:8: unknown SCRIPR method "BILINEAL"; did you mean "BILINEAR"\?; )"
                      R"(OASIS3-MCT has DISTWGT, GAUSWGT, BILINEAR, BICUBIC, CONSERV and )");
  expect_import_error(entry("SCRIPR\n DISTWGT LR SCALAR LATLON 1"),
                      R"(^nc:8: SCRIPR DISTWGT needs the number of neighbours \(1 to 1000\) )");
  expect_import_error(entry("SCRIPR\n GAUSWGT LR SCALAR LATLON 1 4 -1"),
                      R"(^nc:8: SCRIPR GAUSWGT needs a variance > 0 )");
  expect_import_error(entry("SCRIPR\n CONSERV LR SCALAR LATLON 1 FRACAREA"),
                      R"(^nc:8: the SCRIPR CONSERV order \(the seventh word\) takes one of )"
                      R"(FIRST, SECOND; got ""$)");
  expect_import_error(entry("SCRIPR\n BILINEAR REG SCALAR LATLON 1"),
                      R"(^nc:8: the SCRIPR grid type takes one of LR, D, U; got "REG"$)");
  expect_import_error(entry("MAPPING\n w.nc middle"),
                      R"(^nc:8: the MAPPING location takes one of src, dst; got "middle"$)");
  expect_import_error(entry("MAPPING\n w.nc src fast"),
                      R"(^nc:8: the MAPPING strategy takes one of bfb, sum, opt; got "fast"$)");
  expect_import_error(entry("CONSERV\n GLOBALL"),
                      R"(^nc:8: CONSERV takes one of GLOBAL, GLBPOS, BASBAL, BASPOS; got )"
                      R"("GLOBALL"; did you mean "GLOBAL"\?$)");
  expect_import_error(entry("CONSERV\n GLOBAL exact"),
                      R"(^nc:8: the CONSERV sum takes one of bfb, opt, gather, lsum8, lsum16, )"
                      R"(ddpdd, reprosum; got "exact"$)");
  expect_import_error(entry("BLASOLD\n 1.0"),
                      R"(^nc:8: BLASOLD takes a factor and a number of terms \(0 or 1\), )"
                      R"(followed by one line per term, as in "1.0 1" then "CONSTANT 273.15"; )"
                      R"(got "1.0"$)");
  expect_import_error(entry("BLASNEW\n x2 0"), R"(^nc:8: BLASNEW takes a factor and )");
  expect_import_error(entry("BLASNEW\n 1.0 2\n CONSTANT 1"),
                      R"(^nc:8: BLASNEW takes a factor and a number of terms)");
  expect_import_error(entry("BLASOLD\n 1.0 1\n CONSTANT one"),
                      R"(^nc:9: BLASOLD CONSTANT takes the real number to add, as in )"
                      R"("CONSTANT 273.15"; got "CONSTANT one"$)");
}

// Words are split at any whitespace (tabs, CR of CRLF files, runs of spaces), blank and
// comment lines count in line numbers, and a line quoted in a message is its words
// joined by one space.
TEST(Namcouple, WordsAreSplitAtAnyWhitespace) {
  const std::string text = "# written on another system\r\n $RUNTIME\r\n\t100\r\n\r\n"
                           " $STRINGS\r\n  A:B\tC:D 1  10 0 r.nc\tEXPORTED\r\n go\v ga\f\r\n";
  const NamcoupleRead read = read_namcouple(text, "nc");
  ASSERT_EQ(read.config.exchanges.size(), 1u);
  const ExchangeConfig& x = read.config.exchanges[0];
  EXPECT_EQ(x.source.fields, (std::vector<std::string>{"A", "B"}));
  EXPECT_EQ(x.target.fields, (std::vector<std::string>{"C", "D"}));
  EXPECT_EQ(x.period, 10.0);
  EXPECT_EQ(x.where.line, 6);
  expect_error([&] { read_namcouple(text + "\n#\n  x \t  y\r\n", "nc"); }, Errc::Arg,
               R"(^nc:10: unexpected line after the 0 transformations of the entry on line 6: )"
               R"("x y"$)");
  const std::string empty = " $RUNTIME\n 100\n $STRINGS\n A:: B 1 10 0 r.nc EXPORTED\n go ga\n";
  expect_error([&] { read_namcouple(empty, "nc"); }, Errc::Arg,
               R"(^nc:4: "A::" must list distinct, non-empty field names)");
}

// BLASOLD and BLASNEW as a run reads them: the factor and the CONSTANT (Fortran reals
// with E or D exponents); what OASIS3-MCT 4.0 refuses is refused with its line.
TEST(Namcouple, ReadsBlasoldAndBlasnewForARun) {
  const std::string head = " $RUNTIME\n 100\n $STRINGS\n";
  const std::string text =
      head + " A B 1 10 3 r.nc EXPORTED\n go ga\n LOCTRANS BLASOLD BLASNEW\n AVERAGE\n"
             " 0.5D0 1\n CONSTANT -2.5e1\n 3 0\n C D 1 10 1 r.nc EXPORTED\n go ga\n"
             " BLASNEW\n 1.0 1\n CONSTANT 273.15\n";
  const NamcoupleRead read = read_namcouple(text, "nc");
  ASSERT_EQ(read.config.exchanges.size(), 2u);
  EXPECT_TRUE(read.config.refused.empty());
  const ExchangeConfig& a = read.config.exchanges[0];
  EXPECT_EQ(a.transform, Transform::Average);
  EXPECT_EQ(a.source_scaling.factor, 0.5);
  EXPECT_EQ(a.source_scaling.offset, -25.0);
  EXPECT_EQ(a.target_scaling.factor, 3.0);
  EXPECT_EQ(a.target_scaling.offset, 0.0);
  EXPECT_TRUE(read.config.exchanges[1].source_scaling.identity());
  EXPECT_EQ(read.config.exchanges[1].target_scaling.offset, 273.15);
  // Converted to YAML and read back: the same numbers.
  const NamcoupleImport imported = import_namcouple(text, "nc");
  EXPECT_TRUE(imported.notes.not_converted.empty());
  const Config again = parse_config(imported.yaml, "again.yaml");
  EXPECT_EQ(again.exchanges[0].source_scaling.offset, -25.0);
  EXPECT_EQ(again.exchanges[0].target_scaling.factor, 3.0);
  EXPECT_EQ(again.exchanges[1].target_scaling.offset, 273.15);

  const NamcoupleRead refused = read_namcouple(
      head + " A B 1 10 1 r.nc EXPORTED\n go ga\n BLASOLD\n 1.0 2\n CONSTANT 1\n SST 2.0\n"
             " S S 1 10 1 OUTPUT\n go go\n BLASNEW\n 2.0 0\n",
      "nc");
  std::vector<std::string> texts;
  for (const Problem& p : refused.config.refused) texts.push_back(problem_text(p));
  EXPECT_EQ(texts, (std::vector<std::string>{
                       "nc:7:1: BLASOLD with 2 terms (OASIS3-MCT 4.0 takes 0, or 1 for a "
                       "CONSTANT added to the field)",
                       "nc:9:1: BLASOLD: SST 2.0 (OASIS3-MCT 4.0 adds only a CONSTANT; a "
                       "combination with other fields is no longer possible)",
                       "nc:10:1: an OUTPUT entry with a remapping, BLASOLD or BLASNEW (OASIS "
                       "allows only LOCTRANS on OUTPUT entries)"}));
}

// $NWGTOPT: each of OASIS3-MCT 4.0's four values sets every MAPPING entry's
// bad_weight_index, for a run and in the converted YAML (use_bad_index drops, with a
// note); other entries keep the default, and another value is refused with its line.
TEST(Namcouple, NwgtoptSetsTheBadWeightIndexOfMappingEntries) {
  const auto text = [](const std::string& option) {
    return " $NWGTOPT\n " + option + "\n $END\n $RUNTIME\n 100\n $STRINGS\n"
           " A B 1 10 1 r.nc EXPORTED\n 4 3 2 3 go ga\n MAPPING\n w.nc src\n"
           " C D 1 10 0 r.nc EXPORTED\n go ga\n";
  };
  for (const auto& [option, bad, yaml] :
       {std::tuple{"abort_on_bad_index", BadWeightIndex::Refuse, ""},
        std::tuple{"ignore_bad_index", BadWeightIndex::Drop, "bad_weight_index: drop"},
        std::tuple{"ignore_bad_index_silently", BadWeightIndex::DropQuietly,
                   "bad_weight_index: drop_quietly"},
        std::tuple{"use_bad_index", BadWeightIndex::Drop, "bad_weight_index: drop"}}) {
    const NamcoupleRead read = read_namcouple(text(option), "nc");
    EXPECT_TRUE(read.config.refused.empty()) << option;
    ASSERT_EQ(read.config.exchanges.size(), 2u);
    EXPECT_EQ(read.config.exchanges[0].regrid.bad_index, bad) << option;
    EXPECT_EQ(read.config.exchanges[1].regrid.bad_index, BadWeightIndex::Refuse) << option;
    const NamcoupleImport imported = import_namcouple(text(option), "nc");
    EXPECT_TRUE(imported.notes.not_converted.empty()) << option;
    if (*yaml) EXPECT_NE(imported.yaml.find(yaml), std::string::npos) << imported.yaml;
    EXPECT_EQ(imported.yaml.find("bad_weight_index: refuse"), std::string::npos);
    EXPECT_EQ(parse_config(imported.yaml, "again.yaml").exchanges[0].regrid.bad_index, bad);
    const bool noted = std::string(option) == "use_bad_index";
    EXPECT_EQ(read.notes.differences,
              noted ? std::vector<std::string>{
                          "line 1: $NWGTOPT use_bad_index: the MAPPING entries drop the links "
                          "whose address lies outside its grid, with a warning, as "
                          "ignore_bad_index does (a point outside a grid holds no value)"}
                    : std::vector<std::string>{});
  }
  const NamcoupleRead refused = read_namcouple(text("ignore_bad_indexes"), "nc");
  ASSERT_EQ(refused.config.refused.size(), 1u);
  EXPECT_EQ(problem_text(refused.config.refused[0]),
            "nc:1:1: $NWGTOPT \"ignore_bad_indexes\"; did you mean \"ignore_bad_index\"?; "
            "OASIS3-MCT 4.0 reads abort_on_bad_index, ignore_bad_index, "
            "ignore_bad_index_silently, use_bad_index");
}

// `bad_weight_index` in YAML: read with `weights`, refused without.
TEST(Config, BadWeightIndexGoesWithAWeightFile) {
  const std::string head =
      "version: 1\nrun: {length: 100}\nexchanges:\n"
      "  - {source: {component: a, field: x}, target: {component: b, field: y}, period: 10";
  const Config c = parse_config(head + ", weights: w.nc, bad_weight_index: drop_quietly}\n", "c.yaml");
  EXPECT_EQ(c.exchanges[0].regrid.bad_index, BadWeightIndex::DropQuietly);
  EXPECT_EQ(parse_config(head + ", weights: w.nc}\n", "c.yaml").exchanges[0].regrid.bad_index,
            BadWeightIndex::Refuse);
  const ConfigCheck check = check_config(head + ", bad_weight_index: drop}\n", "c.yaml");
  ASSERT_EQ(check.problems.size(), 1u);
  EXPECT_TRUE(std::regex_search(
      check.problems[0].what,
      std::regex("^\"bad_weight_index\" in exchange .* says how the weight file is read, but "
                 "the exchange has no \"weights\"; give one, or remove \"bad_weight_index\"")))
      << check.problems[0].what;
}

// INPUT entries as a run reads them: the fields, the period and the file, apart from
// the exchanges; a malformed one is an error naming its line.
TEST(Namcouple, ReadsInputEntriesForARun) {
  const std::string head = " $NFIELDS\n 2\n $RUNTIME\n 100\n $STRINGS\n";
  const NamcoupleRead read = read_namcouple(
      head + " A B 1 10 0 r.nc EXPORTED\n go ga\n SOALBEDO SOALBEDO 1 86400 0 alb.nc INPUT\n",
      "nc");
  EXPECT_TRUE(read.config.refused.empty());
  ASSERT_EQ(read.config.exchanges.size(), 1u);
  ASSERT_EQ(read.inputs.size(), 1u);
  EXPECT_EQ(read.inputs[0].fields, std::vector<std::string>{"SOALBEDO"});
  EXPECT_EQ(read.inputs[0].period, 86400.0);
  EXPECT_EQ(read.inputs[0].file, "alb.nc");
  EXPECT_EQ(read.inputs[0].line, 8);
  const auto expect_read_error = [&](const std::string& entry, const std::string& pattern) {
    try {
      read_namcouple(head + entry, "nc");
      ADD_FAILURE() << "no error for " << entry;
    } catch (const ferry::Error& e) {
      EXPECT_TRUE(std::regex_search(e.what(), std::regex(pattern))) << e.what();
    }
  };
  expect_read_error(" A B 1 86400 0 alb.nc INPUT\n",
                    R"(^nc:6: an INPUT entry is one line "FIELD FIELD 1 PERIOD 0 FILE INPUT")");
  expect_read_error(" A A 1 86400 1 alb.nc INPUT\n", R"(^nc:6: an INPUT entry)");
  expect_read_error(" A A 1 86400 0 INPUT\n", R"(^nc:6: an INPUT entry)");
  expect_read_error(" A A 1 86400 0 alb.nc INPUT\n LOCTRANS\n",
                    R"(^nc:7: an INPUT entry has one line only \(the entry on line 6\))");
  // Imported into YAML, an INPUT entry is still listed as not converted.
  const std::string entry = " $RUNTIME\n 100\n $STRINGS\n A A 1 86400 0 alb.nc INPUT\n";
  EXPECT_EQ(import_namcouple(entry, "nc").notes.not_converted.size(), 1u);
}

namespace {

std::vector<std::string> problem_texts(const std::string& yaml) {
  std::vector<std::string> texts;
  for (const Problem& p : check_config(yaml, "c.yaml").problems) texts.push_back(problem_text(p));
  return texts;
}

}  // namespace

TEST(CheckConfig, ReportsEveryProblemInTheOrderOfTheFile) {
  const ConfigCheck checked = check_config_file(kSource + "/tests/data/config_with_problems.yaml");
  EXPECT_FALSE(checked.config.has_value());
  std::vector<std::pair<int, int>> positions;
  for (const Problem& p : checked.problems) positions.emplace_back(p.where.line, p.where.column);
  // lag and engine of "sst" (rules), a misspelt key and a value of "fluxes" (schema: its
  // rules are not checked), a key of another method in "runoff" (rules).
  EXPECT_EQ(positions,
            (std::vector<std::pair<int, int>>{{12, 10}, {13, 13}, {17, 5}, {18, 16}, {23, 47}}));
  // The first problem, and how many more: what a coupler reading the file raises.
  expect_error([&] { load_config(kSource + "/tests/data/config_with_problems.yaml"); }, Errc::Arg,
               R"(config_with_problems\.yaml:12:10: exchange "sst": lag 7200 s is longer than )"
               R"(the period 3600 s; ferry supports 0 <= lag <= period \(and 4 more problems: )"
               R"(`ferry validate .*config_with_problems\.yaml` lists them all\)$)");
  const std::string listed = problem_list(checked.problems, 2);
  EXPECT_NE(listed.find(":13:13: exchange \"sst\": engine butterfly"), std::string::npos) << listed;
  EXPECT_NE(listed.find("\n... and 3 more problems\n"), std::string::npos) << listed;
}

TEST(CheckConfig, AMisspeltKeyIsNotAlsoReportedMissing) {
  EXPECT_EQ(problem_texts("version: 1\nrun: {lenght: 5}\nexchanges: [{}]\n"),
            (std::vector<std::string>{
                "c.yaml:2:7: unknown key \"lenght\" in run; did you mean \"length\"?",
                "c.yaml:3:13: missing key \"source\" (a mapping of keys to values) in exchanges "
                "entry 1",
                "c.yaml:3:13: missing key \"target\" (a mapping of keys to values) in exchanges "
                "entry 1",
                "c.yaml:3:13: missing key \"period\" (a number of seconds > 0) in exchanges "
                "entry 1"}));
}

TEST(CheckConfig, SyntaxErrorsInFerrysWords) {
  expect_parse_error("version: 1\nrun:\n\tlength: 10\n",
                     R"(^c\.yaml:3:1: YAML syntax error: line 3 is indented with a tab; YAML )"
                     R"(indents with spaces only, so replace the tab with spaces$)");
  expect_parse_error("version: 1\nrun: {length: 10}\ncomponents: a: b\n",
                     R"(^c\.yaml:3:\d+: YAML syntax error: a ':' where no value can start here: )"
                     R"(a value that contains ": " needs quotes)");
  expect_parse_error("version: 1\nrun:\n  length: 10\n start: 0\n",
                     R"(^c\.yaml:\d+:\d+: YAML syntax error: the indentation does not line up)");
  expect_parse_error("version: 1\nrun: {length: 10}]\n",
                     R"(^c\.yaml:2:\d+: YAML syntax error: a '\}' or '\]' closes nothing)");
  expect_parse_error("version: 1\noutput: {directory: \"a\\q\"}\n",
                     R"(^c\.yaml:2:\d+: YAML syntax error: unknown escape \\q in a double-quoted )"
                     R"(string: write \\\\ for a backslash, or use single quotes$)");
}

TEST(Rules, ExchangesOfOneSourceMayShareARestartFile) {
  // OASIS's rule: one file per source component, each field once (ocnrst.nc).
  const Config c = parse_config(
      "version: 1\nrun: {length: 100}\nexchanges:\n"
      "  - {name: sst, source: {component: ocn, field: sst}, target: {component: atm, field: "
      "sst}, period: 10, lag: 10, restart: ocnrst.nc}\n"
      "  - {name: ice, source: {component: ocn, fields: [ifrac, ithick]}, target: {component: "
      "atm, fields: [ifrac, ithick]}, period: 10, transform: average, restart: ocnrst.nc}\n"
      "  - {name: sst_copy, source: {component: ocn, field: sst}, target: {component: riv, "
      "field: sst}, period: 10}\n",
      "c.yaml");
  EXPECT_EQ(c.exchanges.size(), 3u);
  // Without a lag or a transform an exchange writes no restart file: it cannot clash.
  expect_parse_error(
      "version: 1\nrun: {length: 100}\nexchanges:\n"
      "  - {name: a, source: {component: ocn, field: sst}, target: {component: atm, field: "
      "sst}, period: 10, lag: 5, restart: r.nc}\n"
      "  - {name: b, source: {component: ocn, field: sst}, target: {component: riv, field: "
      "sst}, period: 10, transform: max, restart: r.nc}\n",
      R"(^c\.yaml:5:[0-9]+: exchange "b": restart file "r\.nc" already holds source field "sst" )"
      R"(for exchange "a" \(line 4\))");
  // The default file name counts: "a_restart.nc" is exchange a's.
  expect_parse_error(
      "version: 1\nrun: {length: 100}\nexchanges:\n"
      "  - {name: a, source: {component: ocn, field: sst}, target: {component: atm, field: "
      "sst}, period: 10, lag: 5}\n"
      "  - {name: b, source: {component: atm, field: t}, target: {component: ocn, field: t}, "
      "period: 10, lag: 5, restart: a_restart.nc}\n",
      R"(^c\.yaml:5:[0-9]+: exchange "b": restart file "a_restart\.nc" is also used by )"
      R"(exchange "a" \(line 4\), whose source is component "ocn", not "atm")");
}

// A namcouple names no components: a coupler's enddef names them from the declarations
// and then runs the rules, whose component-dependent ones (a target fed once, a field
// either put or got) see the names.
TEST(Rules, ComponentRulesOfANamcoupleSeeTheNamedComponents) {
  const std::string head = " $RUNTIME\n 100\n $STRINGS\n";
  Config config = read_namcouple(head + " A T 1 10 0 r.nc EXPORTED\n ga gb\n"
                                        " T U 1 10 0 r.nc EXPORTED\n gb ga\n",
                                 "nc").config;
  ASSERT_EQ(config.exchanges.size(), 2u);
  const auto name = [&](const char* first, const char* second) {
    config.exchanges[0].source.component = "atm";
    config.exchanges[0].target.component = "ocn";
    config.exchanges[1].source.component = first;
    config.exchanges[1].target.component = second;
  };
  const auto texts = [&] {
    std::vector<std::string> out;
    for (const Problem& p : check_rules(config)) out.push_back(problem_text(p));
    return out;
  };
  name("atm", "ocn");  // "T" of atm is put, "T" of ocn got: two fields
  EXPECT_EQ(texts(), std::vector<std::string>{});
  name("ocn", "atm");  // "T" of ocn is got by the first and put by the second
  EXPECT_EQ(texts(), (std::vector<std::string>{
                         "nc:6:1: exchange \"T->U\": field \"T\" of component \"ocn\" is its "
                         "source but the target of exchange \"A->T\" (line 4); a field is declared "
                         "either Out (put) or In (get), so use two fields"}));
  config.exchanges[1].source.fields = {"B"};
  config.exchanges[1].target.fields = {"T"};
  name("atm", "ocn");
  EXPECT_EQ(texts(), (std::vector<std::string>{
                         "nc:6:1: exchange \"T->U\": target field \"T\" of component \"ocn\" is "
                         "already fed by exchange \"A->T\" (line 4); a field can be got from one "
                         "exchange only"}));
}

TEST(Rules, EngineOptionsAreThoseTheEngineDeclares) {
  const Config c = parse_config(
      one_exchange("    engine: auto\n    engine_options: {samples: 4, warmup: 1}\n"), "c.yaml");
  EXPECT_EQ(c.exchanges[0].engine_options.size(), 2u);
  // The coupler's adaptive engine never times an engine that put/get cannot use.
  const CouplingEngine engine = coupling_engine(c.exchanges[0]);
  EXPECT_EQ(engine.name, "adaptive");
  EXPECT_EQ(engine.options.values.at("independent_sides"), "true");
  EXPECT_EQ(engine.options.values.at("keep_candidates"), "true");
  EXPECT_EQ(engine.options.values.at("samples"), "4");
  EXPECT_EQ(coupling_engine(parse_config(one_exchange("    engine: p2p\n"), "c.yaml").exchanges[0])
                .options.values.size(),
            0u);
  expect_parse_error(one_exchange("    engine: alltoallv\n    engine_options: {stages: all}\n"),
                     R"(^c\.yaml:9:22: exchange "sst": engine alltoallv has no option "stages"; )"
                     R"(it takes no options$)");
  expect_parse_error(one_exchange("    engine_options: {retun: true}\n"),
                     R"(^c\.yaml:8:22: exchange "sst": engine adaptive \(auto\) has no option )"
                     R"("retun"; did you mean "retune"\?$)");
}

namespace {

// A conservative exchange and the `grids:` entries `grids`.
std::string with_grids(const std::string& grids) {
  return one_exchange("    method: {name: conservative}\n") + "grids:\n" + grids;
}

}  // namespace

TEST(Config, GridFilesParseWithDefaultsAndRoundTrip) {
  const Config c = parse_config(
      with_grids("  - {name: torc, file: grids.nc, mask: masks.nc}\n"
                 "  - name: icon\n    file: icon_grid.nc\n    format: unstructured\n"
                 "  - {name: r2, file: r2.nc}\n"),
      "c.yaml");
  ASSERT_EQ(c.grids.size(), 3u);
  EXPECT_EQ(c.grids[0].name, "torc");
  EXPECT_EQ(c.grids[0].file, "grids.nc");
  EXPECT_EQ(c.grids[0].format, ferry::GridFormat::Auto);
  EXPECT_EQ(c.grids[0].mask, "masks.nc");
  EXPECT_EQ(c.grids[1].format, ferry::GridFormat::Unstructured);
  EXPECT_EQ(c.grids[1].where.line, 11);
  EXPECT_TRUE(c.grids[2].mask.empty());
  EXPECT_EQ(grid_file(c.grids, "icon"), &c.grids[1]);
  EXPECT_EQ(grid_file(c.grids, "lmdz"), nullptr);
  const ferry::GridSource source = grid_source(c.grids[0]);
  EXPECT_EQ(source.path, "grids.nc");
  EXPECT_EQ(source.name, "torc");
  EXPECT_EQ(source.masks, "masks.nc");
  EXPECT_TRUE(source.areas.empty());
  expect_same(parse_config(format_config(c), "written.yaml"), c);
}

TEST(ConfigErrors, GridFilesSayWhatIsWrong) {
  expect_parse_error(with_grids("  - {name: torc, file: g.nc, format: scrp}\n"),
                     R"(^c\.yaml:10:38: format must be one of auto, oasis, scrip, unstructured; )"
                     R"(got "scrp"; did you mean "scrip"\?$)");
  expect_parse_error(with_grids("  - {name: torc}\n"),
                     R"(^c\.yaml:10:5: missing key "file" \(a non-empty string\) in grid "torc")");
  expect_parse_error(with_grids("  - {name: torc, file: g.nc, masks: m.nc}\n"),
                     R"(^c\.yaml:10:30: unknown key "masks" in grid "torc"; did you mean "mask"\?$)");
  expect_parse_error(with_grids("  - {name: torc, file: g.nc, format: unstructured, mask: m.nc}\n"),
                     R"(^c\.yaml:10:52: "mask" in grid "torc" is read only when format is auto or )"
                     R"(oasis, not "unstructured"; remove "mask"$)");
}

// ferry validate opens the grid files: each problem points at the key naming the file.
TEST(ConfigErrors, GridFilesThatCannotBeReadAreProblems) {
  const std::string dir = testing::TempDir();
  const std::string text = dir + "/not_netcdf.nc";
  std::ofstream(text) << "not a NetCDF file\n";
  // A SCRIP file whose centres lack longitudes, and one whose mask has another shape.
  const std::string no_lon = dir + "/no_lon.nc", bad_mask = dir + "/bad_mask.nc";
  for (const std::string& path : {no_lon, bad_mask}) {
    ferry::io::NetcdfFile f("test", path, ferry::io::NetcdfFile::Mode::Create);
    const int cells = f.define_dim("grid_size", 4);
    f.define_var("grid_center_lat", NC_DOUBLE, {cells});
    if (path == bad_mask) {
      f.define_var("grid_center_lon", NC_DOUBLE, {cells});
      f.define_var("grid_imask", NC_INT, {f.define_dim("other", 3)});
    }
    f.end_define();
    f.close();
  }
  const Config c = parse_config(
      with_grids("  - {name: a, file: " + dir + "/no_such_file.nc}\n"
                 "  - {name: b, file: " + text + "}\n"
                 "  - {name: c, file: " + no_lon + "}\n"
                 "  - {name: d, file: " + bad_mask + "}\n"
                 "  - {name: e, file: " + bad_mask + ", mask: " + dir + "/no_such_mask.nc}\n"),
      "c.yaml");
  const std::vector<Problem> problems = check_grid_files(c);
  ASSERT_EQ(problems.size(), 5u);
  const auto expect = [&](std::size_t i, int line, const std::string& pattern) {
    EXPECT_EQ(problems[i].where.line, line) << problems[i].what;
    EXPECT_TRUE(std::regex_search(problems[i].what, std::regex(pattern))) << problems[i].what;
  };
  expect(0, 10, R"(^grid "a": file ".*no_such_file.nc" cannot be read \(No such file or directory\); )"
                R"(give a path relative to the directory the run starts in)");
  expect(1, 11, R"(^grid "b": .*not_netcdf.nc)");
  expect(2, 12, R"(^grid "c": read_grid: ".*no_lon.nc" has no variable "grid_center_lon")");
  expect(3, 13, R"(^grid "d": read_grid: "grid_imask" of ".*bad_mask.nc" has another shape than )"
                R"(the centres)");
  expect(4, 14, R"(^grid "e": mask ".*no_such_mask.nc" cannot be read)");
  for (const std::string& path : {text, no_lon, bad_mask}) std::remove(path.c_str());
}
