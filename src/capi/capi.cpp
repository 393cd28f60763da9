// The C API of layouts and exchanges: ferry::Layout behind ferry_layout, ferry::Exchange
// behind ferry_exchange.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "capi/c_call.hpp"
#include "capi/layout_handle.hpp"
#include "ferry/config.hpp"
#include "ferry/exchange.hpp"
#include "ferry/ferry.h"

struct ferry_exchange {
  static constexpr const char* kWhat = "exchange";
  static constexpr const char* kSetup = "ferry_exchange_setup";
  MPI_Comm comm = MPI_COMM_NULL;  // the user's; used at setup
  ferry::Layout src;              // until setup
  ferry::Layout dst;              // until setup
  std::string engine;
  std::vector<ferry::FieldSpec> fields;
  ferry::EngineOptions options;
  std::optional<ferry::Exchange> object;
  std::vector<std::uint8_t> mask;  // converted from int per field, sized at setup
};

namespace {

using ferry::detail::c_call;
using ferry::detail::CCall;
using ferry::detail::create_handle;
using ferry::detail::destroy_handle;
using ferry::detail::mask_bytes;

template <class Make>
int make_layout(const char* function, ferry_layout** out, Make&& make) {
  return create_handle(function, out, [&](const CCall&) { return new ferry_layout{make()}; });
}

}  // namespace

extern "C" {

const char* ferry_error_string(int code) {
  return ferry::errc_name(static_cast<ferry::Errc>(code));
}

const char* ferry_version(void) { return FERRY_VERSION_STRING; }

int ferry_layout_create_block(int64_t n, int parts, int part, ferry_layout** layout) {
  return make_layout("ferry_layout_create_block", layout,
                     [&] { return ferry::Layout::block(n, parts, part); });
}

int ferry_layout_create_box(int64_t nx, int64_t ny, int px, int py, int part,
                            ferry_layout** layout) {
  return make_layout("ferry_layout_create_box", layout,
                     [&] { return ferry::Layout::box(nx, ny, px, py, part); });
}

int ferry_layout_create_orange(int64_t nx, int64_t ny, int parts, int part, ferry_layout** layout) {
  return make_layout("ferry_layout_create_orange", layout,
                     [&] { return ferry::Layout::orange(nx, ny, parts, part); });
}

int ferry_layout_create_round_robin(int64_t n, int parts, int part, ferry_layout** layout) {
  return make_layout("ferry_layout_create_round_robin", layout,
                     [&] { return ferry::Layout::round_robin(n, parts, part); });
}

int ferry_layout_create_points(int64_t n, int64_t count, const int64_t* ids,
                               ferry_layout** layout) {
  return create_handle("ferry_layout_create_points", layout, [&](const CCall& call) {
    return new ferry_layout{ferry::Layout::points(n, call.array(ids, count, "ids"))};
  });
}

int ferry_layout_create_random(int64_t n, int parts, int part, uint64_t seed,
                               ferry_layout** layout) {
  return make_layout("ferry_layout_create_random", layout,
                     [&] { return ferry::Layout::random(n, parts, part, seed); });
}

int ferry_layout_create_none(int64_t n, ferry_layout** layout) {
  return make_layout("ferry_layout_create_none", layout, [&] { return ferry::Layout::none(n); });
}

int ferry_layout_local_size(const ferry_layout* layout, int64_t* local_size) {
  return c_call("ferry_layout_local_size", [&](const CCall& call) {
    const ferry::Layout& l = call.handle(layout).layout;
    call.out(local_size) = l.local_size();
  });
}

int ferry_layout_global_size(const ferry_layout* layout, int64_t* global_size) {
  return c_call("ferry_layout_global_size", [&](const CCall& call) {
    const ferry::Layout& l = call.handle(layout).layout;
    call.out(global_size) = l.global_size();
  });
}

int ferry_layout_get_ids(const ferry_layout* layout, int64_t* ids) {
  return c_call("ferry_layout_get_ids", [&](const CCall& call) {
    call.copy_out(call.handle(layout).layout.ids(), ids, "ids");
  });
}

int ferry_layout_destroy(ferry_layout** layout) {
  return destroy_handle("ferry_layout_destroy", layout);
}

int ferry_exchange_create(MPI_Comm comm, const ferry_layout* src, const ferry_layout* dst,
                          const char* engine, ferry_exchange** exchange) {
  return create_handle("ferry_exchange_create", exchange, [&](const CCall& call) {
    auto ex = std::make_unique<ferry_exchange>();
    ex->comm = comm;
    ex->src = call.handle(src, "source layout").layout;
    ex->dst = call.handle(dst, "destination layout").layout;
    ex->engine = engine ? engine : "default";
    return ex.release();
  });
}

int ferry_exchange_add_field(ferry_exchange* exchange, int type, int components, int* field_index) {
  return c_call("ferry_exchange_add_field", [&](const CCall& call) {
    auto& e = call.unbuilt(exchange);
    const ferry::Datatype datatype = call.datatype(type);
    FERRY_CHECK(components >= 1, ferry::Errc::Arg, call.function(),
                ": components must be >= 1; got ", components);
    e.fields.push_back({datatype, components});
    if (field_index) *field_index = static_cast<int>(e.fields.size()) - 1;
  });
}

int ferry_exchange_set_option(ferry_exchange* exchange, const char* key, const char* value) {
  return c_call("ferry_exchange_set_option", [&](const CCall& call) {
    call.set_option(call.unbuilt(exchange).options, key, value);
  });
}

int ferry_exchange_setup(ferry_exchange* exchange) {
  return c_call("ferry_exchange_setup", [&](const CCall& call) {
    auto& e = call.unbuilt(exchange);
    e.object.emplace(e.comm, e.src, e.dst, e.fields, e.engine, e.options);
    e.mask.assign(e.fields.size(), 1);
    // The layouts now live in the plan; free the copies.
    e.src = ferry::Layout();
    e.dst = ferry::Layout();
  });
}

int ferry_exchange_execute(ferry_exchange* exchange, const void* const* src, void* const* dst,
                           const int* mask) {
  return c_call("ferry_exchange_execute", [&](const CCall& call) {
    ferry::Exchange& e = call.built(exchange);
    e.execute(src, dst, mask_bytes(mask, exchange->mask));
  });
}

int ferry_exchange_begin(ferry_exchange* exchange, const void* const* src, void* const* dst,
                         const int* mask) {
  return c_call("ferry_exchange_begin", [&](const CCall& call) {
    ferry::Exchange& e = call.built(exchange);
    e.begin(src, dst, mask_bytes(mask, exchange->mask));
  });
}

int ferry_exchange_end(ferry_exchange* exchange) {
  return c_call("ferry_exchange_end", [&](const CCall& call) { call.built(exchange).end(); });
}

int ferry_exchange_destination_field(ferry_exchange* exchange, int field, void** memory) {
  return c_call("ferry_exchange_destination_field", [&](const CCall& call) {
    void*& out = call.out(memory);
    out = nullptr;
    ferry::Exchange& e = call.built(exchange);
    FERRY_CHECK(field >= 0, ferry::Errc::ArgRange, "field ", field, " is negative");
    out = e.destination_field(static_cast<std::size_t>(field));
  });
}

int ferry_exchange_get_engine(const ferry_exchange* exchange, const char** engine) {
  return c_call("ferry_exchange_get_engine", [&](const CCall& call) {
    const ferry::Exchange& e = call.built(exchange);
    call.out(engine) = e.engine_name().c_str();
  });
}

int ferry_exchange_close(ferry_exchange* exchange) {
  return c_call("ferry_exchange_close", [&](const CCall& call) {
    auto& e = call.handle(exchange);
    if (e.object) e.object->close();
  });
}

int ferry_exchange_destroy(ferry_exchange** exchange) {
  return destroy_handle("ferry_exchange_destroy", exchange);
}

}  // extern "C"
