#include "harness/interrupt.h"

#include <signal.h>
#include <unistd.h>

#include "common/kill_on_exit.h"

namespace dbxb {
namespace internal {
std::atomic<bool> g_interrupt_requested{false};
}  // namespace internal

namespace {

std::atomic<void (*)()> g_second_hook{nullptr};

void OnSignal(int) {
  if (internal::g_interrupt_requested.exchange(true)) {  // the second request: leave now
    if (auto hook = g_second_hook.load()) hook();
    KillProcessesOnExitList();  // private database servers must not outlive the run
    _exit(130);
  }
  static const char kMessage[] =
      "\ndbx-bench: interrupted; finishing the current operation and writing the finished benchmarks "
      "(press Ctrl-C again to exit at once)\n";
  ssize_t ignored = write(STDERR_FILENO, kMessage, sizeof kMessage - 1);
  (void)ignored;
}

}  // namespace

void InstallInterruptHandlers() {
  struct sigaction sa {};
  sa.sa_handler = OnSignal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
}

void SetSecondInterruptHook(void (*hook)()) { g_second_hook.store(hook); }

void SetInterruptRequestedForTesting(bool requested) { internal::g_interrupt_requested.store(requested); }

}  // namespace dbxb
