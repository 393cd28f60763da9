// ferry::Engine: the interface every exchange engine implements, and the registry.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "ferry/comm.hpp"
#include "ferry/datatype.hpp"
#include "ferry/engine_options.hpp"
#include "ferry/plan.hpp"
#include "ferry/traffic.hpp"

namespace ferry {

/// What an engine needs from MPI and offers.
struct Capabilities {
  bool persistent = false;    ///< setup creates persistent requests or windows
  bool one_sided = false;     ///< uses MPI RMA
  bool holds_fields = false;  ///< offers stage() and take(): fields wait in its own buffers
  /// The ranks of the source side and of the destination side may call begin() and end()
  /// at different times (the coupler's put on one component, get on the other). False
  /// for an engine that forwards data through ranks of both sides inside one call.
  bool independent_sides = true;
  /// Every message of the engine on its communicator carries a tag in
  /// [tag_base, tag_base + ExchangeShare::kTagsPerExchange) (Engine::join), and it makes
  /// no collective call on it outside setup() and close(): exchanges over one
  /// ExchangeShare may then use its communicator instead of a duplicate each.
  bool tagged = false;
};

class ExchangeShare;

/// What an engine tells about the choices it made (see Engine::report).
struct EngineReport {
  /// False while the engine still tries alternatives on the exchanges it is given
  /// (the adaptive engine profiling): their times say little about later exchanges.
  bool settled = true;
  /// How the data moves now, e.g. "butterfly:01"; empty for engines without a choice.
  std::string choice;
  /// A human-readable account, several lines; empty for engines without a choice.
  std::string text;
};

/// Moves the bytes of a Plan. `setup` is collective over the plan's communicator;
/// `begin` starts one exchange of the fields selected by `mask` (nullptr = all),
/// `end` completes it. Between begin and end the caller may compute, but must not
/// touch the destination buffers. Engines read the source fields in begin, so the
/// caller may reuse those once it returns. Engines never allocate in begin/end.
class Engine {
 public:
  virtual ~Engine() = default;
  virtual std::string_view name() const = 0;
  virtual Capabilities capabilities() const = 0;
  /// Collective. `comm` outlives the engine; `fields` fixes the types and components.
  virtual void setup(const Plan& plan, const Comm& comm, const std::vector<FieldSpec>& fields,
                     const EngineOptions& options) = 0;
  /// Collective, non-blocking. src[f]/dst[f] point to field f's local data
  /// (src_local_size x components / dst_local_size x components values); mask[f]
  /// non-zero moves field f this time.
  virtual void begin(const void* const* src, void* const* dst, const std::uint8_t* mask) = 0;
  /// Completes the exchange started by begin.
  virtual void end() = 0;
  /// begin() then end(), for callers that wait for the exchange at once
  /// (Exchange::execute). Collective and blocking.
  virtual void execute(const void* const* src, void* const* dst, const std::uint8_t* mask) {
    begin(src, dst, mask);
    end();
  }
  /// True when end() would not wait: what begin() started has completed on this rank.
  /// Makes MPI progress and never blocks, so callers can wait with a timeout. Not
  /// collective.
  virtual bool test() = 0;
  /// True when begin() would not wait for another rank. An engine whose begin() waits
  /// (for its destinations to have read the previous exchange, for a reduction of the
  /// ranks' timings) makes that progress here without blocking and says false until
  /// then, so callers can wait with a timeout (the coupler's watchdog). Only between
  /// end() and begin(). Not collective. Default: true.
  virtual bool can_begin() { return true; }
  /// For callers whose fields become ready one at a time (the coupler's puts), with
  /// Capabilities::holds_fields: copies field f's values from `src` into the engine's
  /// send buffer now, so the caller may reuse `src` at once. The next begin() sends
  /// them without reading its src[f]; it must move every field (mask nullptr). Only
  /// between end() and begin(). Not collective. Others raise Errc::Unsupported.
  virtual void stage(std::size_t field, const void* src);
  /// The other side, with Capabilities::holds_fields: a begin() given dst[f] == nullptr
  /// leaves field f in the engine's receive buffer, and after end() take(f, dst)
  /// copies it to `dst`, as often as wanted until the next stage() or begin(). Not
  /// collective. Others raise Errc::Unsupported.
  virtual void take(std::size_t field, void* dst);
  /// Memory the engine offers for field f's values on this rank's destination layout
  /// (dst_local_size x components elements), or nullptr. An engine that offers it
  /// (rma, for ranks with a source on the same node) lets those sources write into it
  /// directly: passing it as dst[f] to the next begin() moves each of their values
  /// once. Ask before each begin(): the memory alternates between two areas, so that
  /// the values of one exchange stay in place until the end() of the next one while
  /// sources fill the other. The caller must not write it before begin(): sources
  /// may be filling it since the previous end(). It lives as long as the engine. Not collective; after
  /// setup. The default offers none.
  virtual void* destination_field(std::size_t field);
  /// What an exchange of every field sends from this rank. Not collective; after setup.
  virtual Traffic traffic() const = 0;
  /// What the engine decided so far. Not collective.
  virtual EngineReport report() const { return {}; }
  /// Collective over the plan's communicator: frees what only every rank together can
  /// free (RMA windows: MPI_Win_free waits for all). Called at most once, by
  /// Exchange::close(), after end(); nothing but traffic(), report() and destruction
  /// may follow. The destructor frees only what needs no other rank (requests, memory,
  /// communicators), so an engine dropped while a partner is gone never waits for it;
  /// what it cannot free stays until MPI_Finalize. See docs/dev/engines.md. Default:
  /// nothing to free.
  virtual void close() {}

  /// Not collective; before setup(), by an Exchange made over an ExchangeShare: the
  /// share (whose resources the engine may use and store, such as the rma engine's
  /// window; it outlives the engine) and the first tag of the engine's range. When
  /// capabilities().tagged the communicator given to setup() is the share's, which other
  /// exchanges use too; otherwise tag_base is 0 and the communicator is the exchange's own.
  void join(ExchangeShare& share, int tag_base) noexcept {
    share_ = &share;
    tag_base_ = tag_base;
  }

 protected:
  /// The share given to join(), or null.
  ExchangeShare* share() const noexcept { return share_; }
  /// The first tag of this engine's range (0 without a share).
  int tag_base() const noexcept { return tag_base_; }

 private:
  ExchangeShare* share_ = nullptr;
  int tag_base_ = 0;
};

using EngineFactory = std::function<std::unique_ptr<Engine>()>;

/// One key an engine reads from its EngineOptions, as the registry declares it, so that
/// a configuration can be checked before any exchange is set up.
struct EngineOptionKey {
  std::string name;  ///< e.g. "reorder"
  std::string doc;   ///< its values and meaning, one line
};

/// Registers an engine under `name` (replacing a previous one of that name). Not collective.
/// Without `options`, the option keys the engine reads are unknown until its setup.
void register_engine(const std::string& name, EngineFactory factory);
/// The same, declaring every option key the engine reads (none: an empty list).
void register_engine(const std::string& name, EngineFactory factory,
                     std::vector<EngineOptionKey> options);
/// Makes the engine registered as `name`. Errc::Arg lists the available engines.
std::unique_ptr<Engine> make_engine(const std::string& name);
/// Names of every registered engine, in registration order.
std::vector<std::string> engine_names();
/// Built-in engines this build could not offer, with the reason ("rma: MPI lacks ...").
std::vector<std::string> disabled_engines();
/// The option keys engine `name` declared at its registration; nullopt if it declared
/// none or is not registered. Not collective.
std::optional<std::vector<EngineOptionKey>> engine_option_keys(const std::string& name);
/// What engine `name` offers, asked of an engine that is not set up (so for adaptive,
/// before it chose a candidate). Needs no MPI. Errc::Arg if it is not registered.
Capabilities engine_capabilities(const std::string& name);

/// Resolves an engine request: an empty name or "default" means $FERRY_ENGINE, else p2p;
/// "auto" means the adaptive engine, which times the others and keeps the fastest.
std::string resolve_engine_name(const std::string& requested);

}  // namespace ferry
