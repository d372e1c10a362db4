#include "harness/signal_handlers.h"

#include <signal.h>
#include <unistd.h>

#include "common/kill_on_exit.h"

namespace dbxb {
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

// A broken pipe (`dbx-bench run ... | head`): stop as at a first Ctrl-C, once; later writes to the pipe
// fail with EPIPE instead of ending the process, so that the finished results are still written.
void OnBrokenPipe(int) {
  signal(SIGPIPE, SIG_IGN);
  internal::g_interrupt_requested.store(true);
}

}  // namespace

void InstallInterruptHandlers() {
  struct sigaction sa {};
  sa.sa_handler = OnSignal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
  sigaction(SIGHUP, &sa, nullptr);  // a closed terminal
  sa.sa_handler = OnBrokenPipe;
  sigaction(SIGPIPE, &sa, nullptr);
}

void RequestInterrupt() { internal::g_interrupt_requested.store(true); }

void SetSecondInterruptHook(void (*hook)()) { g_second_hook.store(hook); }

void SetInterruptRequestedForTesting(bool requested) { internal::g_interrupt_requested.store(requested); }

}  // namespace dbxb
