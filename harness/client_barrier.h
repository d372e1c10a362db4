// The meeting points of the client processes of `run --clients` (harness/clients.h), as a client sees
// them: before each phase, at its measured start, after it, and before its database closes, a client
// says where it is and waits until every client is there. The parent process answers on descriptor 3.
//
// Protocol, one line each: the client writes "wait <tag>"; the parent answers "go" once every client
// waits with the same tag, or "abort" when one failed, ended or went elsewhere. A client whose phase
// failed writes "fail <what failed>" at once, so that the others stop and the run ends with its error. An abort, a
// parent that is gone and an interrupt all stop this client as a first Ctrl-C does (harness/signal_handlers.h).
#pragma once

#include <string>

#include "common/status.h"

namespace dbxb {

/// The descriptor a client process inherits from its parent for the barrier.
inline constexpr int kClientBarrierFd = 3;

class ClientBarrier {
 public:
  /// On descriptor `fd` (owned by the caller).
  explicit ClientBarrier(int fd) : fd_(fd) {}

  /// Waits until every client reached `tag` (one line, no newline). OK to go on; Interrupted (and an
  /// interrupt requested) otherwise. Returns within 100 ms of an interrupt. Thread-safe enough for one
  /// caller at a time.
  Status Wait(const std::string& tag);
  /// Tells the parent that something failed here (`what`, one line).
  void Fail(const std::string& what);

 private:
  int fd_;
};

}  // namespace dbxb
