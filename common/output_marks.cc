#include "common/output_marks.h"

#include <fmt/format.h>
#include <sys/stat.h>

#include <string>
#include <vector>

#include "common/atomic_file.h"
#include "common/file_policy.h"

namespace dbxb {
namespace {

constexpr uint64_t kMaxMarksBytes = 1 << 20;
constexpr char kHeader[] =
    "# dbx-bench: the files it wrote in this directory, so that it never replaces another "
    "(docs/reliability.md)\n";

struct Mark {
  std::string writer;
  std::string identity;  // device, inode, size, mtime: "<dev>\t<ino>\t<size>\t<s>.<ns>"
  std::string name;
};

std::string DirectoryOf(const std::string& path) {
  const size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

std::string BaseNameOf(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string MarksPathFor(const std::string& path) { return DirectoryOf(path) + "/" + kOutputMarksFile; }

// File names may hold any byte but '/' and NUL: the separators of the format are escaped.
std::string Escape(std::string_view name) {
  std::string out;
  for (char c : name) {
    if (c == '\\')
      out += "\\\\";
    else if (c == '\t')
      out += "\\t";
    else if (c == '\n')
      out += "\\n";
    else
      out += c;
  }
  return out;
}

std::string Unescape(std::string_view text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '\\' || i + 1 == text.size()) {
      out += text[i];
      continue;
    }
    const char c = text[++i];
    out += c == 't' ? '\t' : c == 'n' ? '\n' : c;
  }
  return out;
}

// The identity and state of the regular file at `path`; empty when it is not one.
std::string IdentityOf(const std::string& path) {
  struct stat st;
  if (::lstat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return "";
  return fmt::format("{}\t{}\t{}\t{}.{:09}", static_cast<uint64_t>(st.st_dev), static_cast<uint64_t>(st.st_ino),
                     static_cast<uint64_t>(st.st_size), static_cast<int64_t>(st.st_mtim.tv_sec),
                     static_cast<int64_t>(st.st_mtim.tv_nsec));
}

std::vector<Mark> ReadMarks(const std::string& marks_path) {
  std::vector<Mark> marks;
  std::string text;
  if (!ReadInputFile(marks_path, kMaxMarksBytes, &text).ok()) return marks;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    const std::string_view line(text.data() + pos, end - pos);
    pos = end + 1;
    if (line.empty() || line[0] == '#') continue;
    // writer, 4 identity fields, name
    std::vector<std::string_view> fields;
    size_t start = 0;
    for (int i = 0; i < 5; ++i) {
      const size_t tab = line.find('\t', start);
      if (tab == std::string_view::npos) break;
      fields.push_back(line.substr(start, tab - start));
      start = tab + 1;
    }
    if (fields.size() != 5) continue;  // a damaged line marks nothing
    const char* first = fields[1].data();
    const std::string_view identity(first, static_cast<size_t>(fields[4].data() + fields[4].size() - first));
    marks.push_back(Mark{std::string(fields[0]), std::string(identity), Unescape(line.substr(start))});
  }
  return marks;
}

}  // namespace

bool IsMarkedOutput(const std::string& path, std::string_view writer) {
  const std::string identity = IdentityOf(path);
  if (identity.empty()) return false;
  const std::string name = BaseNameOf(path);
  for (const Mark& m : ReadMarks(MarksPathFor(path)))
    if (m.name == name) return m.writer == writer && m.identity == identity;
  return false;
}

void MarkOutput(const std::string& path, std::string_view writer) {
  const std::string marks_path = MarksPathFor(path);
  struct stat st;
  if (::lstat(marks_path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) return;  // not ours to replace
  const std::string dir = DirectoryOf(path);
  const std::string name = BaseNameOf(path);
  std::string text = kHeader;
  for (const Mark& m : ReadMarks(marks_path)) {
    if (m.name == name || IdentityOf(dir + "/" + m.name) != m.identity) continue;  // replaced below, or stale
    text += fmt::format("{}\t{}\t{}\n", m.writer, m.identity, Escape(m.name));
  }
  const std::string identity = IdentityOf(path);
  if (identity.empty()) return;
  text += fmt::format("{}\t{}\t{}\n", writer, identity, Escape(name));
  (void)WriteFileAtomically(marks_path, text);
}

}  // namespace dbxb
