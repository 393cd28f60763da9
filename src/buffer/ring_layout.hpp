// Where the counters, stamps, step numbers and step data of one requester rank's
// ring live in its window. Every rank computes the same layout.
#pragma once

#include <mpi.h>

#include <cstdint>

namespace ferry::detail {

/// Byte displacements in a requester rank's window (disp_unit 1). Control words are
/// std::int64_t, read and written only with MPI atomics:
///   progress     loads * 2 + closed: how many steps this rank has published
///   cursor[g]    how many loads worker group g has finished reading (lossless)
///   stamp[s]     the load number held by slot s, or kNoLoad while it is rewritten
///   step[s]      the step number of that load
/// then the slots' data, `slot_bytes` each (the rank's box of one step, C order).
struct RingLayout {
  /// A stamp that matches no load: an empty slot, or one being rewritten.
  static constexpr std::int64_t kNoLoad = -1;

  int groups = 0;
  std::int64_t capacity = 1;  // slots

  static MPI_Aint progress() { return 0; }
  MPI_Aint cursor(int group) const { return word(1 + group); }
  MPI_Aint stamp(std::int64_t slot) const { return word(1 + groups + slot); }
  MPI_Aint step(std::int64_t slot) const { return word(1 + groups + capacity + slot); }
  /// Control words in all; they start at displacement 0.
  std::int64_t control_words() const { return 1 + groups + 2 * capacity; }
  /// Data of the slot, on a 64-byte boundary so copies start cache-aligned.
  MPI_Aint data(std::int64_t slot, std::int64_t slot_bytes) const {
    constexpr MPI_Aint kAlign = 64;
    const MPI_Aint control = word(control_words());
    return (control + kAlign - 1) / kAlign * kAlign + static_cast<MPI_Aint>(slot * slot_bytes);
  }
  MPI_Aint window_bytes(std::int64_t slot_bytes) const { return data(capacity, slot_bytes); }

  static std::int64_t progress_word(std::int64_t loads, bool closed) {
    return loads * 2 + (closed ? 1 : 0);
  }
  static std::int64_t loads_of(std::int64_t progress_word) { return progress_word / 2; }
  static bool closed_in(std::int64_t progress_word) { return progress_word % 2 == 1; }

 private:
  static MPI_Aint word(std::int64_t index) {
    return static_cast<MPI_Aint>(index * static_cast<std::int64_t>(sizeof(std::int64_t)));
  }
};

}  // namespace ferry::detail
