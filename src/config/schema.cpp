#include "config/schema.hpp"

#include <utility>

#include "config/config.hpp"
#include "ferry/engine.hpp"

namespace ferry::config {

namespace {

Key required(std::string name, KeyType type, std::string doc) {
  Key key;
  key.name = std::move(name);
  key.type = type;
  key.presence = Presence::Required;
  key.doc = std::move(doc);
  return key;
}

Key optional(std::string name, KeyType type, std::string default_value, std::string doc) {
  Key key;
  key.name = std::move(name);
  key.type = type;
  key.default_value = std::move(default_value);
  key.doc = std::move(doc);
  return key;
}

Key bounded(Key key, Bound bound) {
  key.bound = bound;
  return key;
}

Key in_seconds(Key key, Bound bound) {
  key.unit = "seconds";
  return bounded(std::move(key), bound);
}

// `<side>_factor` and `<side>_offset`: value * factor + offset on one side of an exchange.
Key scaling_factor(const std::string& side, const std::string& values, const std::string& when,
                   const std::string& oasis) {
  return optional(side + "_factor", KeyType::Number, "1",
                  "Every value " + values + " is multiplied by this number, then `" + side +
                      "_offset` is added, " + when + " (the OASIS " + oasis +
                      "). Computed in double precision, point by point; float64 and float32 "
                      "fields only.");
}

Key scaling_offset(const std::string& side, const std::string& values, const std::string& oasis) {
  return optional(side + "_offset", KeyType::Number, "0",
                  "Added to every value " + values + " after `" + side + "_factor` (the OASIS " +
                      oasis + " CONSTANT).");
}

Key with_children(Key key, std::vector<Key> children) {
  key.children = std::move(children);
  return key;
}

// `source:` and `target:` have the same keys; `role` says what the side does.
Key field_side(const std::string& name, const std::string& role) {
  Key field;
  field.name = "field";
  field.type = KeyType::String;
  field.presence = Presence::OneOf;
  field.doc = "Name of the one field the component " + role +
              " (as the model declares it). Give either `field` or `fields`.";
  Key fields = field;
  fields.name = "fields";
  fields.type = KeyType::StringList;
  fields.doc = "Names of several fields the component " + role +
               ", moved together with one message per peer (an OASIS namcouple's "
               "colon-separated names). The source and target lists match in order "
               "and have the same length.";
  return with_children(
      required(name, KeyType::Mapping,
               "The component that " + role + " the data, and the names of its fields."),
      {required("component", KeyType::String,
                "Name of the component, as it registers with ferry."),
       field, fields});
}

std::vector<std::string> engine_choices() {
  std::vector<std::string> choices{"auto"};
  for (auto& name : engine_names()) choices.push_back(std::move(name));
  return choices;
}

// An optional choice whose first value is the default.
Key choice(std::string name, std::vector<std::string> choices, std::string doc) {
  Key key = optional(std::move(name), KeyType::Choice, choices.front(), std::move(doc));
  key.choices = std::move(choices);
  return key;
}

Key weights_key() {
  Key weights = optional(
      "weights", KeyType::String, "",
      "A SCRIP or ESMF remapping file (as written by CDO gen* or ESMF_RegridWeightGen) "
      "from the source grid to the target grid: the exchange is regridded with it. Give "
      "either `weights` or `method`; neither means both sides are on the same grid.");
  weights.default_doc = "none";
  weights.excludes = {"method"};
  return weights;
}

Key bad_weight_index_key() {
  Key key = optional(
      "bad_weight_index", KeyType::Choice, "refuse",
      "What happens to a link of the `weights` file whose source or destination address "
      "lies outside its grid, a weight of a point that does not exist (the OASIS "
      "$NWGTOPT): `refuse` stops enddef on every rank with the file and the first such "
      "link (abort_on_bad_index); `drop` leaves such links out and warns once with their "
      "number and the first one (ignore_bad_index); `drop_quietly` leaves them out without "
      "a word (ignore_bad_index_silently).");
  key.choices = {"refuse", "drop", "drop_quietly"};
  key.needs_any = {"weights"};
  key.needs_why = "says how the weight file is read";
  return key;
}

// A key of `method` that only the methods `names` read.
Key for_methods(Key key, std::vector<std::string> names) {
  key.only_when = "name";
  key.only_when_values = std::move(names);
  return key;
}

Key method_key() {
  Key name = required("name", KeyType::Choice,
                      "`nearest`: inverse-distance weights of the nearest source points "
                      "(OASIS DISTWGT, CDO gendis); `gaussian`: Gaussian weights of them "
                      "(OASIS GAUSWGT); `bilinear`: bilinear on a logically rectangular "
                      "source grid (CDO genbil; OASIS SCRIPR BILINEAR); `bicubic`: bicubic "
                      "on a logically rectangular source grid, with gradients ferry "
                      "computes from the field (CDO genbic; OASIS SCRIPR BICUBIC); "
                      "`conservative`: conservative, first or second `order`, from the cell "
                      "corners of any convex cells, great-circle or lon-lat (CDO gencon and "
                      "gencon2; OASIS SCRIPR CONSERV).");
  name.choices = {"nearest", "gaussian", "bilinear", "bicubic", "conservative"};
  Key method = optional(
      "method", KeyType::Mapping, "",
      "Weights computed at enddef from the centres (set_coordinates) or, for "
      "`conservative`, the cell corners (set_corners), and the masks (set_mask) the "
      "components declare, instead of a weight file.");
  method.default_doc = "none";
  return with_children(
      method,
      {name,
       for_methods(bounded(optional("neighbours", KeyType::Integer, "4",
                                    "`nearest` and `gaussian`: source points per destination "
                                    "point."),
                           Bound::Positive),
                   {"nearest", "gaussian"}),
       for_methods(choice("masked_neighbours", {"skip", "drop", "drop_no_fill"},
                          "`nearest` and `gaussian`: `skip` takes the nearest valid source "
                          "points; `drop` takes the nearest source points, masked or not, "
                          "gives the valid ones weights (`nearest`: inverse great-circle "
                          "distance) and the masked ones none, and gives a target point whose "
                          "nearest are all masked its nearest valid source point (OASIS SCRIPR "
                          "DISTWGT and GAUSWGT); `drop_no_fill` leaves that point without "
                          "links (OASIS DISTWGTNF and GAUSWGTNF). `gaussian` drops only with "
                          "`gaussian_scale: neighbours`."),
                   {"nearest", "gaussian"}),
       for_methods(choice("gaussian_scale", {"source", "neighbours"},
                          "`gaussian`: the spacing the variance is in units of: `source`, "
                          "the mean spacing of the source grid; `neighbours`, for each "
                          "target point the mean great-circle distance between its "
                          "neighbours (OASIS SCRIPR GAUSWGT)."),
                   {"gaussian"}),
       for_methods(bounded(optional("variance", KeyType::Number, "0.1",
                                    "`gaussian`: the variance of the Gaussian in units of the "
                                    "spacing squared (see `gaussian_scale`)."),
                           Bound::Positive),
                   {"gaussian"}),
       for_methods(optional("periodic", KeyType::Boolean, "true",
                            "`bilinear`, `bicubic` and second-order `conservative`: the "
                            "source grid wraps around in longitude (a global grid)."),
                   {"bilinear", "bicubic", "conservative"}),
       for_methods(choice("normalisation", {"fracarea", "destarea"},
                          "`conservative`: what the weights of a target cell add up to: "
                          "`fracarea` divides by the cell's overlap with the valid source "
                          "cells (a constant stays that constant, also next to masked source "
                          "cells); `destarea` divides by the cell's area (the weights add up "
                          "to the fraction covered)."),
                   {"conservative"}),
       for_methods(bounded(optional("order", KeyType::Integer, "1",
                                    "`conservative`: 1 for first order; 2 for second order "
                                    "(SCRIP's, as CDO gencon2 and OASIS's CONSERV ... "
                                    "SECOND): the field is expanded about each source cell's "
                                    "centroid with gradients ferry computes from it (least "
                                    "squares over the 8 nearest source cells), so each target "
                                    "cell also receives from the neighbours of the cells it "
                                    "overlaps."),
                           Bound::OneOrTwo),
                   {"conservative"}),
       for_methods(choice("unmapped", {"fill", "nearest", "four_nearest"},
                          "`bilinear`, `bicubic` and `conservative`: what a valid target "
                          "point that no valid source covers receives: `fill` leaves it to "
                          "the exchange's `fill` value (OASIS's NF methods); `nearest` gives "
                          "it the value of its nearest valid source point (OASIS CONSERV "
                          "FRACNNEI and DESTNNEI); `four_nearest` (`bilinear` and `bicubic` "
                          "only, OASIS BILINEAR and BICUBIC) the inverse-distance average "
                          "of the valid ones among its 4 nearest source points, or the "
                          "nearest valid one if all 4 are masked."),
                   {"bilinear", "bicubic", "conservative"})});
}

// A key of an exchange that only a regridded exchange (`weights` or `method`) may give.
Key regridding(Key key) {
  key.needs_any = {"weights", "method"};
  key.needs_why = "regrids";
  return key;
}

Key exchanges_key() {
  Key exchanges = required(
      "exchanges", KeyType::List,
      "The exchanges: each sends one field, or a bundle of fields, from a source "
      "component to a target component at every coupling time.");
  exchanges.entry_noun = "exchange";
  exchanges.presence = Presence::Optional;
  exchanges.default_doc = "none (a file gives `exchanges`, `buffers` or both)";

  Key name = optional("name", KeyType::String, "",
                      "Unique name of the exchange, used in messages, timers and file names.");
  name.default_doc = "`<first source field>-><first target field>`";

  Key transform = optional(
      "transform", KeyType::Choice, "instant",
      "What the source sends from the puts of one coupling period (the OASIS LOCTRANS): "
      "`instant` the put at the coupling time, `accumulate` the sum of the puts, "
      "`average` their mean, `min` and `max` their point-wise minimum and maximum.");
  for (const Transform t : kTransforms) transform.choices.emplace_back(transform_name(t));

  Key engine = optional(
      "engine", KeyType::Choice, "auto",
      "The engine that moves the data. `auto` uses the adaptive engine, which times the "
      "others on the first exchanges and keeps the fastest. An engine whose two sides "
      "cannot progress independently (butterfly) cannot serve put/get and is refused.");
  engine.choices = engine_choices();
  engine.choices_doc = "`auto`, or an engine of this build (`ferry info` lists them)";

  Key engine_options = optional(
      "engine_options", KeyType::StringMap, "",
      "Options of the engine as `name: value`, e.g. `reorder: true` for neighbor or "
      "`samples: 5` for adaptive (`auto`). The names are checked against the options "
      "the engine declares (docs/user/engines), the values when the exchange is set up.");
  engine_options.default_doc = "none";

  Key restart = optional(
      "restart", KeyType::String, "",
      "Name of the restart file, in `output.directory`, that carries the values of a "
      "lagged or transformed exchange from one run to the next (the OASIS restart file). "
      "Exchanges with the same source component may share one when they store different "
      "fields.");
  restart.default_doc = "`<name>_restart.nc`";

  return with_children(
      exchanges,
      {name, field_side("source", "puts"), field_side("target", "gets"),
       in_seconds(required("period", KeyType::Number,
                           "Seconds of model time between coupling times: the exchange "
                           "happens at start, start + period, start + 2 period, ..."),
                  Bound::Positive),
       in_seconds(optional("lag", KeyType::Number, "0",
                           "Seconds: a get at time t receives the put made at time t - lag "
                           "(the OASIS LAG). Gets before start + lag receive the restart "
                           "file's values. Lag and period need not be multiples of each other."),
                  Bound::NonNegative),
       bounded(optional("sequence", KeyType::Integer, "0",
                        "Order of the exchanges due at the same coupling time on ranks that "
                        "take part in several, lowest first (the OASIS SEQ). Needed when "
                        "components on overlapping ranks exchange in both directions."),
               Bound::NonNegative),
       transform, engine, engine_options,
       optional("output", KeyType::Boolean, "false",
                "Also write every exchanged field to a NetCDF file in `output.directory` "
                "(the OASIS EXPOUT)."),
       optional("check_in", KeyType::Boolean, "false",
                "Log the global minimum, maximum and sum of every field sent, at each coupling "
                "time (info level; the OASIS CHECKIN)."),
       optional("check_out", KeyType::Boolean, "false",
                "Log the global minimum, maximum and sum of every field received, at each "
                "coupling time (info level; the OASIS CHECKOUT)."),
       scaling_factor("source", "sent", "after the time transform and before any remapping",
                      "BLASOLD"),
       scaling_offset("source", "sent", "BLASOLD"),
       scaling_factor("target", "received", "after any remapping, conservation and fill",
                      "BLASNEW"),
       scaling_offset("target", "received", "BLASNEW"),
       restart, weights_key(), bad_weight_index_key(), method_key(),
       regridding(choice("map_on", {"dst", "src"},
              "Where the sparse product of a regridded exchange runs: `dst` moves the source "
              "field to the target ranks and remaps there; `src` remaps on the source ranks "
              "and moves the result. Both give the same bits with `mode: bfb`.")),
       regridding(choice("mode", {"bfb", "sum"},
              "How a regridded exchange forms its sums: `bfb` sums every destination point "
              "in the weights' order on one rank (the same bits on any number of ranks); "
              "`sum` (with `map_on: src`) sends partial sums, fewer bytes but last bits that "
              "depend on the decomposition.")),
       regridding(optional("fill", KeyType::Number, "0",
                "Value of the destination points that receive nothing: the points the target "
                "grid masks (set_mask) and the points without weights.")),
       regridding(choice("conservation", {"none", "global", "global_positive", "basin_balance",
                               "basin_positive"},
              "Correction of a regridded field so that its area integral matches the "
              "source's (the OASIS CONSERV): `global` adds the residual per unit area "
              "(GLOBAL), `global_positive` scales (GLBPOS), `basin_balance` and "
              "`basin_positive` keep the mean per unit of unmasked area (BASBAL, BASPOS). "
              "Cell areas and masks come from set_areas and set_mask, else from the weight "
              "file.")),
       regridding(choice("sum", {"reprosum", "gather", "lsum8", "lsum16", "ddpdd"},
              "The global sum of the conservation: `reprosum` and `gather` give the same "
              "bits on any number of ranks, `lsum8` is fastest, `lsum16` and `ddpdd` are "
              "more precise than lsum8."))});
}

// A `source:` or `target:` of a buffer: one component and one field; `direction` is
// how the component declares the field, `verb` what its ranks do with their box.
Key buffer_side(const std::string& name, const std::string& direction, const std::string& verb) {
  return with_children(
      required(name, KeyType::Mapping,
               "The component that " + verb + "s the time series, and its field."),
      {required("component", KeyType::String,
                "Name of the component, as it registers with ferry."),
       required("field", KeyType::String,
                "Name of a field the component declares `" + direction +
                    "` (as the model declares it): its type is the buffer's, and each rank " +
                    verb + "s the box of the grid its partition holds.")});
}

Key buffers_key() {
  Key buffers = optional(
      "buffers", KeyType::List, "",
      "Time-series buffers: the source component loads one step after another into a "
      "one-sided ring on its own ranks and the target component reads the steps it wants, "
      "each rank the box of its partition (the user guide's coupler chapter, \"Time-series "
      "buffers\"). Source and target run on disjoint ranks; the models call only load and read.");
  buffers.default_doc = "none";
  buffers.entry_noun = "buffer";
  Key mode = choice("mode", {"lossless", "lossy"},
                    "`lossless`: a load waits while the target has not read the step it would "
                    "overwrite; `lossy`: a load never waits, and a target that falls behind gets "
                    "the newest steps and a count of the steps it lost.");
  return with_children(
      buffers,
      {required("name", KeyType::String,
                "Unique name of the buffer, which load and read name."),
       buffer_side("source", "Out", "load"), buffer_side("target", "In", "read"),
       bounded(required("capacity", KeyType::Integer,
                        "Steps each source rank keeps in its ring."),
               Bound::Positive),
       mode});
}

Key grids_key() {
  Key grids = optional(
      "grids", KeyType::List, "",
      "Grids whose cells the online methods (`method`) read from a file instead of from "
      "what the components declare (set_coordinates, set_corners, set_mask): at enddef "
      "the ranks of the regridding product each read their block of the file. The "
      "file's cells are the grid's points in the file's order (point (i, j) of an OASIS "
      "or 2-D SCRIP grid at j * nx + i), so the grid's declared size (and, for "
      "`bilinear` and `bicubic` sources, its first dimension) must be the file's.");
  grids.default_doc = "none";
  grids.entry_noun = "grid";
  Key format = choice("format", {"auto", "oasis", "scrip", "unstructured"},
                      "How the file stores the grid: `oasis` an OASIS grids.nc (variables "
                      "`<name>.lon`, `.lat`, `.clo`, `.cla`), `scrip` a SCRIP grid file "
                      "(`grid_center_lon`, `grid_corner_lon`, `grid_imask`, ...), "
                      "`unstructured` a CDO/ICON file (`clon`, `clat`, `clon_vertices`, "
                      "`clat_vertices`); `auto` recognises it from these variables.");
  const auto oasis_file = [](std::string name, std::string doc) {
    Key key = optional(std::move(name), KeyType::String, "", std::move(doc));
    key.default_doc = "none";
    key.only_when = "format";
    key.only_when_values = {"auto", "oasis"};
    return key;
  };
  // Cell areas are not read: conservative weights measure the cells themselves, and
  // the conservation of other methods takes set_areas.
  return with_children(
      grids,
      {required("name", KeyType::String,
                "The grid, as the components declare it (def_grid); in an OASIS file also "
                "the prefix of its variables (`torc` for `torc.lon`). Unique among the "
                "grids."),
       required("file", KeyType::String,
                "The grid file, relative to the directory the run starts in (as `weights`)."),
       format,
       oasis_file("mask", "OASIS format: the masks.nc holding `<name>.msk` (1 = masked, as "
                          "OASIS writes it). Without it every cell is valid. A SCRIP file's "
                          "`grid_imask` is read from `file` itself.")});
}

}  // namespace

Key config_schema() {
  Key root;
  root.type = KeyType::Mapping;
  root.presence = Presence::Required;
  root.doc = "A ferry coupling configuration.";
  root.any_of = {"exchanges", "buffers"};

  Key version = required("version", KeyType::Integer,
                         "Version of the file format. This ferry reads version 1; a file of "
                         "another version is refused rather than half understood.");
  Key components = optional(
      "components", KeyType::StringList, "",
      "Names of the components the exchanges may use. When given, an exchange naming "
      "another component is an error (with a suggestion); when absent, any name is "
      "accepted.");
  components.default_doc = "any name";

  root.children = {
      version,
      with_children(
          required("run", KeyType::Mapping, "The span of model time the coupled run covers."),
          {in_seconds(optional("start", KeyType::Number, "0",
                               "Model time at which the run starts, in seconds."),
                      Bound::None),
           in_seconds(required("length", KeyType::Number,
                               "How long the run lasts, in seconds of model time (the OASIS "
                               "$RUNTIME)."),
                      Bound::Positive)}),
      components,
      exchanges_key(),
      buffers_key(),
      grids_key(),
      with_children(
          optional("output", KeyType::Mapping, "", "Where and what ferry writes."),
          {optional("directory", KeyType::String, ".",
                    "Directory of the restart, field output and timer files."),
           optional("timers", KeyType::Boolean, "true",
                    "Write the timers of every exchange as JSON at finalize."),
           optional("imbalance", KeyType::Boolean, "false",
                    "Time a barrier over the sending (or receiving) ranks of a component "
                    "right before each exchange starts, as the timer `imbalance`: the "
                    "waiting for the slower ranks of the same component, told apart from "
                    "communication and from waiting for the partner (`ferry report`). "
                    "Costs one barrier per exchange and coupling time, and needs every "
                    "rank of a component to make its puts and gets in the same order.")}),
      with_children(
          optional("watchdog", KeyType::Mapping, "",
                   "Turns a hang into an error (see docs/user/failures.md)."),
          {in_seconds(optional("timeout", KeyType::Number, "120",
                               "A put, get or finalize that waits longer than this many "
                               "seconds of wall-clock time for a partner fails with an error "
                               "naming the exchange and the partner, and tells every other "
                               "rank, instead of hanging; 0 waits forever. Raise it above the "
                               "longest pause of a component between two coupling calls "
                               "(writing output, for example)."),
                      Bound::NonNegative),
           in_seconds(optional("collective_timeout", KeyType::Number, "600",
                               "How long the collective calls (building the Coupler, enddef, "
                               "finalize) wait for every rank of the run to make them; a rank "
                               "that never comes fails every rank with an error naming its "
                               "component. Longer than `timeout`: components reach these "
                               "calls after their own set-up or final output, at their own "
                               "pace. 0 waits forever."),
                      Bound::NonNegative)}),
  };
  return root;
}

const Key* find_child(const Key& parent, const std::string& name) {
  for (const Key& child : parent.children)
    if (child.name == name) return &child;
  return nullptr;
}

std::vector<std::string> child_names(const Key& parent) {
  std::vector<std::string> names;
  for (const Key& child : parent.children) names.push_back(child.name);
  return names;
}

std::string describe_value(const Key& key) {
  const std::string bound = key.bound == Bound::Positive      ? " > 0"
                            : key.bound == Bound::NonNegative ? " >= 0"
                            : key.bound == Bound::OneOrTwo    ? ", 1 or 2"
                                                              : "";
  switch (key.type) {
    case KeyType::Integer:
      return "an integer" + bound;
    case KeyType::Number:
      return "a number" + (key.unit.empty() ? "" : " of " + key.unit) + bound;
    case KeyType::Boolean:
      return "true or false";
    case KeyType::String:
      return "a non-empty string";
    case KeyType::Choice: {
      std::string list;
      for (const auto& choice : key.choices) list += (list.empty() ? "" : ", ") + choice;
      return "one of " + list;
    }
    case KeyType::StringList:
      return "a list of distinct names";
    case KeyType::StringMap:
      return "a mapping of names to values";
    case KeyType::Mapping:
      return "a mapping of keys to values";
    case KeyType::List:
      return "a list of entries, each a mapping";
  }
  return "";
}

}  // namespace ferry::config
