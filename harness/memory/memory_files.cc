#include "harness/memory/memory_files.h"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>
#include <sstream>

namespace dbxb::memory_internal {

std::string ErrnoText(int err) { return std::strerror(err); }

Result<std::string> ReadFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) return Status::IOError("cannot read " + path + ": " + ErrnoText(errno));
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Writes `text` with one write(2), as cgroup files require; the kernel's errno is the useful message.
Status WriteFile(const std::string& path, const std::string& text) {
  int fd = open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) return Status::IOError("open " + path + ": " + ErrnoText(errno));
  ssize_t n = write(fd, text.data(), text.size());
  int err = errno;
  close(fd);
  if (n != static_cast<ssize_t>(text.size()))
    return Status::IOError("write '" + text + "' to " + path + ": " + ErrnoText(err));
  return Status::Ok();
}

std::string Trim(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

Status ParseDecimal(std::string_view text, const std::string& what, uint64_t* out) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
  uint64_t v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size())
    return Status::InvalidArgument(what + ": '" + std::string(text) + "' is not a decimal count");
  *out = v;
  return Status::Ok();
}

std::atomic<uint64_t> g_child_counter{0};

std::string NewChildName() {
  return "dbxb-" + std::to_string(getpid()) + "-" + std::to_string(g_child_counter.fetch_add(1));
}

}  // namespace dbxb::memory_internal
