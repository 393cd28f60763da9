// The C API of layouts and exchanges: handle checks over the exception firewall.
#include <algorithm>
#include <string>
#include <vector>

#include "capi/c_enums.hpp"
#include "capi/firewall.hpp"
#include "capi/layout_handle.hpp"
#include "ferry/config.hpp"
#include "ferry/exchange.hpp"
#include "ferry/ferry.h"

struct ferry_exchange {
  MPI_Comm comm = MPI_COMM_NULL;  // private duplicate until setup
  ferry::Layout src;
  ferry::Layout dst;
  std::string engine;
  std::vector<ferry::FieldSpec> fields;
  ferry::EngineOptions options;
  std::unique_ptr<ferry::Exchange> exchange;
  std::vector<std::uint8_t> mask;  // converted from int per field, sized at setup
};

namespace {

using ferry::detail::deref;
using ferry::detail::guarded;

template <class Make>
int make_layout(ferry_layout** out, const char* function, Make&& make) {
  return guarded(function, [&] {
    FERRY_CHECK(out != nullptr, ferry::Errc::Arg, function, ": output handle pointer is NULL");
    *out = nullptr;
    *out = new ferry_layout{make()};
  });
}

ferry_exchange& live_exchange(ferry_exchange* ex, const char* function) {
  auto& e = deref(ex, function, "exchange");
  FERRY_CHECK(e.exchange != nullptr, ferry::Errc::State, function,
              ": the exchange is not set up. Call ferry_exchange_setup first");
  return e;
}

const std::uint8_t* convert_mask(ferry_exchange& e, const int* mask) {
  if (mask == nullptr) return nullptr;
  for (std::size_t f = 0; f < e.mask.size(); ++f) e.mask[f] = mask[f] != 0 ? 1 : 0;
  return e.mask.data();
}

}  // namespace

extern "C" {

const char* ferry_error_string(int code) {
  return ferry::errc_name(static_cast<ferry::Errc>(code));
}

const char* ferry_version(void) { return FERRY_VERSION_STRING; }

int ferry_layout_create_block(int64_t n, int parts, int part, ferry_layout** layout) {
  return make_layout(layout, "ferry_layout_create_block",
                     [&] { return ferry::Layout::block(n, parts, part); });
}

int ferry_layout_create_box(int64_t nx, int64_t ny, int px, int py, int part,
                            ferry_layout** layout) {
  return make_layout(layout, "ferry_layout_create_box",
                     [&] { return ferry::Layout::box(nx, ny, px, py, part); });
}

int ferry_layout_create_orange(int64_t nx, int64_t ny, int parts, int part, ferry_layout** layout) {
  return make_layout(layout, "ferry_layout_create_orange",
                     [&] { return ferry::Layout::orange(nx, ny, parts, part); });
}

int ferry_layout_create_round_robin(int64_t n, int parts, int part, ferry_layout** layout) {
  return make_layout(layout, "ferry_layout_create_round_robin",
                     [&] { return ferry::Layout::round_robin(n, parts, part); });
}

int ferry_layout_create_points(int64_t n, int64_t count, const int64_t* ids,
                               ferry_layout** layout) {
  return make_layout(layout, "ferry_layout_create_points", [&] {
    FERRY_CHECK(count >= 0 && (count == 0 || ids != nullptr), ferry::Errc::Arg,
                "ferry_layout_create_points: need count >= 0 and a non-NULL ids array; got count ",
                count);
    return ferry::Layout::points(n, std::vector<std::int64_t>(ids, ids + count));
  });
}

int ferry_layout_create_random(int64_t n, int parts, int part, uint64_t seed,
                               ferry_layout** layout) {
  return make_layout(layout, "ferry_layout_create_random",
                     [&] { return ferry::Layout::random(n, parts, part, seed); });
}

int ferry_layout_create_none(int64_t n, ferry_layout** layout) {
  return make_layout(layout, "ferry_layout_create_none", [&] { return ferry::Layout::none(n); });
}

int ferry_layout_local_size(const ferry_layout* layout, int64_t* local_size) {
  return guarded("ferry_layout_local_size", [&] {
    const auto& l = deref(layout, "ferry_layout_local_size", "layout");
    FERRY_CHECK(local_size != nullptr, ferry::Errc::Arg, "ferry_layout_local_size: output is NULL");
    *local_size = l.layout.local_size();
  });
}

int ferry_layout_global_size(const ferry_layout* layout, int64_t* global_size) {
  return guarded("ferry_layout_global_size", [&] {
    const auto& l = deref(layout, "ferry_layout_global_size", "layout");
    FERRY_CHECK(global_size != nullptr, ferry::Errc::Arg,
                "ferry_layout_global_size: output is NULL");
    *global_size = l.layout.global_size();
  });
}

int ferry_layout_get_ids(const ferry_layout* layout, int64_t* ids) {
  return guarded("ferry_layout_get_ids", [&] {
    const auto& l = deref(layout, "ferry_layout_get_ids", "layout");
    FERRY_CHECK(ids != nullptr || l.layout.local_size() == 0, ferry::Errc::Arg,
                "ferry_layout_get_ids: output array is NULL");
    std::copy(l.layout.ids().begin(), l.layout.ids().end(), ids);
  });
}

int ferry_layout_destroy(ferry_layout** layout) {
  return guarded("ferry_layout_destroy", [&] {
    if (layout == nullptr) return;
    delete *layout;
    *layout = nullptr;
  });
}

int ferry_exchange_create(MPI_Comm comm, const ferry_layout* src, const ferry_layout* dst,
                          const char* engine, ferry_exchange** exchange) {
  return guarded("ferry_exchange_create", [&] {
    FERRY_CHECK(exchange != nullptr, ferry::Errc::Arg,
                "ferry_exchange_create: output handle pointer is NULL");
    *exchange = nullptr;
    const auto& s = deref(src, "ferry_exchange_create", "source layout");
    const auto& d = deref(dst, "ferry_exchange_create", "destination layout");
    auto ex = std::make_unique<ferry_exchange>();
    ex->comm = comm;
    ex->src = s.layout;
    ex->dst = d.layout;
    ex->engine = engine ? engine : "default";
    *exchange = ex.release();
  });
}

int ferry_exchange_add_field(ferry_exchange* exchange, int type, int components, int* field_index) {
  return guarded("ferry_exchange_add_field", [&] {
    auto& e = deref(exchange, "ferry_exchange_add_field", "exchange");
    FERRY_CHECK(e.exchange == nullptr, ferry::Errc::State,
                "ferry_exchange_add_field: the exchange is already set up; add every field "
                "before ferry_exchange_setup");
    const ferry::Datatype datatype =
        ferry::detail::datatype_of(type, "ferry_exchange_add_field");
    FERRY_CHECK(components >= 1, ferry::Errc::Arg,
                "ferry_exchange_add_field: components must be >= 1; got ", components);
    e.fields.push_back({datatype, components});
    if (field_index) *field_index = static_cast<int>(e.fields.size()) - 1;
  });
}

int ferry_exchange_set_option(ferry_exchange* exchange, const char* key, const char* value) {
  return guarded("ferry_exchange_set_option", [&] {
    auto& e = deref(exchange, "ferry_exchange_set_option", "exchange");
    FERRY_CHECK(key && value, ferry::Errc::Arg, "ferry_exchange_set_option: key or value is NULL");
    FERRY_CHECK(e.exchange == nullptr, ferry::Errc::State,
                "ferry_exchange_set_option: set options before ferry_exchange_setup");
    e.options.values[key] = value;
  });
}

int ferry_exchange_setup(ferry_exchange* exchange) {
  return guarded("ferry_exchange_setup", [&] {
    auto& e = deref(exchange, "ferry_exchange_setup", "exchange");
    FERRY_CHECK(e.exchange == nullptr, ferry::Errc::State,
                "ferry_exchange_setup: the exchange is already set up");
    e.exchange = std::make_unique<ferry::Exchange>(e.comm, e.src, e.dst, e.fields, e.engine,
                                                   e.options);
    e.mask.assign(e.fields.size(), 1);
    // The layouts now live in the plan; free the copies.
    e.src = ferry::Layout();
    e.dst = ferry::Layout();
  });
}

int ferry_exchange_execute(ferry_exchange* exchange, const void* const* src, void* const* dst,
                           const int* mask) {
  return guarded("ferry_exchange_execute", [&] {
    auto& e = live_exchange(exchange, "ferry_exchange_execute");
    e.exchange->execute(src, dst, convert_mask(e, mask));
  });
}

int ferry_exchange_begin(ferry_exchange* exchange, const void* const* src, void* const* dst,
                         const int* mask) {
  return guarded("ferry_exchange_begin", [&] {
    auto& e = live_exchange(exchange, "ferry_exchange_begin");
    e.exchange->begin(src, dst, convert_mask(e, mask));
  });
}

int ferry_exchange_end(ferry_exchange* exchange) {
  return guarded("ferry_exchange_end",
                 [&] { live_exchange(exchange, "ferry_exchange_end").exchange->end(); });
}

int ferry_exchange_get_engine(const ferry_exchange* exchange, const char** engine) {
  return guarded("ferry_exchange_get_engine", [&] {
    auto& e = live_exchange(const_cast<ferry_exchange*>(exchange), "ferry_exchange_get_engine");
    FERRY_CHECK(engine != nullptr, ferry::Errc::Arg, "ferry_exchange_get_engine: output is NULL");
    *engine = e.exchange->engine_name().c_str();
  });
}

int ferry_exchange_destroy(ferry_exchange** exchange) {
  return guarded("ferry_exchange_destroy", [&] {
    if (exchange == nullptr) return;
    delete *exchange;
    *exchange = nullptr;
  });
}

}  // extern "C"
