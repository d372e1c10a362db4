#include "harness/client_barrier.h"

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>

#include "harness/signal_handlers.h"

namespace dbxb {
namespace {

Status Stop(const std::string& why) {
  RequestInterrupt();
  return Status::Interrupted(why);
}

bool WriteLine(int fd, const std::string& line) {
  for (size_t done = 0; done < line.size();) {
    ssize_t n = send(fd, line.data() + done, line.size() - done, MSG_NOSIGNAL);  // a socket: no SIGPIPE
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

}  // namespace

void ClientBarrier::Fail(const std::string& what) {
  std::string one_line = what;
  for (char& c : one_line)
    if (c == '\n' || c == '\r') c = ' ';
  (void)WriteLine(fd_, "fail " + one_line + "\n");
}

Status ClientBarrier::Wait(const std::string& tag) {
  if (!WriteLine(fd_, "wait " + tag + "\n")) return Stop("client barrier: the parent process is gone");
  std::string answer;
  for (;;) {
    if (InterruptRequested()) return Status::Interrupted("client barrier: interrupted");
    pollfd p{fd_, POLLIN, 0};
    const int ready = poll(&p, 1, 100);
    if (ready < 0 && errno == EINTR) continue;
    if (ready == 0) continue;
    char c = 0;
    const ssize_t n = read(fd_, &c, 1);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return Stop("client barrier: the parent process is gone");
    if (c != '\n') {
      answer += c;
      continue;
    }
    if (answer == "go") return Status::Ok();
    return Stop("client barrier: another client failed or stopped (" + answer + ")");
  }
}

}  // namespace dbxb
