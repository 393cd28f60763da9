// ferry::Exchange: a plan bound to an engine and a set of fields; what users hold.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ferry/comm.hpp"
#include "ferry/engine.hpp"
#include "ferry/error.hpp"
#include "ferry/exchange_share.hpp"
#include "ferry/layout.hpp"
#include "ferry/plan.hpp"

namespace ferry {

/// Moves fields from a source layout to a destination layout, again and again.
///
/// Collective over `comm`: every rank passes its source layout (Layout::none if it
/// is not a source) and its destination layout (Layout::none if it is not a
/// destination), the same field list and the same engine name. The communicator
/// is duplicated, so the caller may free its own at once.
///
/// Lifecycle: construct (builds the plan and sets up the engine), then any number
/// of execute() or begin()/end() pairs, then close() (collective) and destruction.
/// After an error inside an exchange the object is failed and only close() and
/// destruction are allowed. The destructor never waits for another rank: what only
/// every rank together can free (the rma engine's windows) is freed by close(), or
/// else stays until MPI_Finalize (see docs/user/failures.md).
class Exchange {
 public:
  /// Collective. `engine`: a registered name, "auto", or "" / "default" for $FERRY_ENGINE
  /// or p2p. Raises the Plan::build errors, Errc::Arg for an unknown engine or a field
  /// with components < 1, Errc::Unsupported when the engine cannot run on this MPI.
  Exchange(MPI_Comm comm, const Layout& src, const Layout& dst, std::vector<FieldSpec> fields,
           const std::string& engine = "default", const EngineOptions& options = {});
  /// Collective, as above, over a plan built before (Plan::build) on `comm` or on a
  /// communicator of the same ranks in the same order: exchanges between the same
  /// layouts share one plan instead of building and holding one each.
  Exchange(MPI_Comm comm, std::shared_ptr<const Plan> plan, std::vector<FieldSpec> fields,
           const std::string& engine = "default", const EngineOptions& options = {});
  /// Collective over `share`'s communicator, as above over a plan built on it (or on
  /// one of the same ranks in the same order), sharing what exchanges over one plan can
  /// share (see ExchangeShare): an engine whose capabilities are `tagged` uses the
  /// share's communicator with a tag range of its own (else the exchange duplicates it
  /// as above), the rma engine a part of the share's window. Make the exchanges over a
  /// share in the same order on every rank; any of them may be in flight at once.
  /// Every rank raises the same error, as above, but for an error the share's
  /// LateSetupErrors leaves to the rank that met it.
  Exchange(std::shared_ptr<ExchangeShare> share, std::shared_ptr<const Plan> plan,
           std::vector<FieldSpec> fields, const std::string& engine = "default",
           const EngineOptions& options = {});
  ~Exchange();
  Exchange(Exchange&&) noexcept;
  Exchange& operator=(Exchange&&) noexcept;

  /// Collective, idempotent: frees what only every rank together can free (Engine::close)
  /// and ends the exchange's life; afterwards only the queries below and destruction
  /// are allowed. Errc::State while an exchange is in flight (call end() first). On an
  /// exchange that failed, frees nothing collectively (its partners may be gone) and
  /// returns at once.
  void close();

  /// Collective: begin() then end().
  void execute(const void* const* src, void* const* dst, const std::uint8_t* mask = nullptr);
  /// Collective, non-blocking: starts moving the fields selected by mask (nullptr = all).
  void begin(const void* const* src, void* const* dst, const std::uint8_t* mask = nullptr);
  /// Collective: completes the exchange started by begin().
  void end();
  /// Not collective: true when end() would not wait (makes MPI progress, never blocks).
  bool test();
  /// Not collective: true when begin() would not wait for another rank (Engine::can_begin).
  bool can_begin();

  /// Not collective. With an engine whose capabilities() hold fields: copies field f's
  /// source values into the engine now (the caller may reuse `src` at once); the next
  /// begin() sends them without reading src[f]. See Engine::stage. Errc::Unsupported
  /// for other engines.
  void stage(std::size_t field, const void* src);
  /// Not collective. After end() of a begin() given dst[f] == nullptr: copies field f's
  /// received values to `dst`. See Engine::take.
  void take(std::size_t field, void* dst) const;
  /// Not collective. Memory for field f on this rank's destination layout that the
  /// engine allocated so that sources on the same node can write into it directly
  /// (the rma engine), or nullptr (other engines, or no source on this node). Pass it
  /// as dst[f] to the next begin()/execute(): each value from a node peer then moves
  /// once. Ask again before each exchange (two areas take turns) and do not write it
  /// before: node sources may already be filling it. The values received into it stay
  /// there until the end of the next exchange. Errc::ArgRange for a
  /// field index out of range. See Engine::destination_field.
  void* destination_field(std::size_t field);
  /// What the engine offers (Capabilities::holds_fields: stage and take).
  Capabilities capabilities() const;

  /// Convenience for one field.
  void execute(const void* src, void* dst) { execute(&src, &dst, nullptr); }

  const Plan& plan() const noexcept;
  const std::vector<FieldSpec>& fields() const noexcept;
  const std::string& engine_name() const noexcept;
  /// What one exchange of every field sends from this rank with the engine in use.
  Traffic traffic() const;
  /// What the engine decided so far (the adaptive engine: profiling or its choice,
  /// with every candidate's time). Not collective.
  EngineReport engine_report() const;
  /// Seconds spent building the plan and setting up the engine on this rank.
  double setup_seconds() const noexcept;
  /// The exchange's communicator: a duplicate of the one given, or the share's.
  MPI_Comm comm() const noexcept;

 private:
  // Not collective but for the duplicate of `comm` (none with a share): the engine
  // and fields, and this rank's error in making them, still to be agreed.
  std::optional<Error> make_engine_for(MPI_Comm comm, std::vector<FieldSpec> fields,
                                       const std::string& engine);
  // The constructors over a given plan (`comm` unused with a share).
  void set_up_over(MPI_Comm comm, std::shared_ptr<const Plan> plan, std::vector<FieldSpec> fields,
                   const std::string& engine, const EngineOptions& options);
  // With a share: the fields' agreement, with the engine's first if its set-up has one.
  // `source`, `destination`: this rank's part, for messages.
  void set_up_over_share(std::optional<Error> local, bool source, bool destination,
                         const EngineOptions& options, double start);
  void set_up_engine(const EngineOptions& options, double start);

  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace ferry
