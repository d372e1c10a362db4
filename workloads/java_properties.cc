#include "workloads/java_properties.h"

#include <fmt/format.h>

namespace dbxb {
namespace {

bool IsBlank(char c) { return c == ' ' || c == '\t' || c == '\f'; }

Status Error(std::string_view source, int line, std::string_view problem) {
  return Status::InvalidArgument(fmt::format("{}:{}: {}", source, line, problem));
}

// Refuses what is not UTF-8 text: control characters other than tab, form feed and line ends, and
// malformed UTF-8 sequences. Binary files fail here on their first odd byte.
Status CheckText(std::string_view text, std::string_view source) {
  int line = 1;
  for (size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c == '\n' || (c == '\r' && (i + 1 == text.size() || text[i + 1] != '\n'))) ++line;
    if (c < 0x80) {
      if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f') || c == 0x7f)
        return Error(source, line, fmt::format("not a text file (control byte 0x{:02x})", c));
      ++i;
      continue;
    }
    // Lead byte: 110xxxxx (2 bytes, >= U+0080), 1110xxxx (3), 11110xxx (4, <= U+10FFFF).
    const int len = (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3 : (c & 0xf8) == 0xf0 ? 4 : 0;
    bool ok = len != 0 && i + len <= text.size() && c != 0xc0 && c != 0xc1 && c <= 0xf4;
    for (int k = 1; ok && k < len; ++k) ok = (static_cast<unsigned char>(text[i + k]) & 0xc0) == 0x80;
    if (ok && len == 3) {
      const auto c1 = static_cast<unsigned char>(text[i + 1]);
      ok = !(c == 0xe0 && c1 < 0xa0) && !(c == 0xed && c1 >= 0xa0);  // overlong; UTF-16 surrogates
    }
    if (ok && len == 4) {
      const auto c1 = static_cast<unsigned char>(text[i + 1]);
      ok = !(c == 0xf0 && c1 < 0x90) && !(c == 0xf4 && c1 >= 0x90);  // overlong; above U+10FFFF
    }
    if (!ok) return Error(source, line, fmt::format("not UTF-8 text (byte 0x{:02x})", c));
    i += len;
  }
  return Status::Ok();
}

void AppendUtf8(uint32_t cp, std::string* out) {
  if (cp < 0x80) {
    *out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    *out += static_cast<char>(0xc0 | (cp >> 6));
    *out += static_cast<char>(0x80 | (cp & 0x3f));
  } else if (cp < 0x10000) {
    *out += static_cast<char>(0xe0 | (cp >> 12));
    *out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
    *out += static_cast<char>(0x80 | (cp & 0x3f));
  } else {
    *out += static_cast<char>(0xf0 | (cp >> 18));
    *out += static_cast<char>(0x80 | ((cp >> 12) & 0x3f));
    *out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
    *out += static_cast<char>(0x80 | (cp & 0x3f));
  }
}

// Reads the four hex digits of a \u escape at s[pos..pos+4).
bool ReadHex4(std::string_view s, size_t pos, uint32_t* cp) {
  if (pos + 4 > s.size()) return false;
  uint32_t v = 0;
  for (size_t k = pos; k < pos + 4; ++k) {
    const char c = s[k];
    const int d = c >= '0' && c <= '9'   ? c - '0'
                  : c >= 'a' && c <= 'f' ? c - 'a' + 10
                  : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                         : -1;
    if (d < 0) return false;
    v = v * 16 + static_cast<uint32_t>(d);
  }
  *cp = v;
  return true;
}

// Resolves the escapes of a key or value (Java's loadConvert).
Status Unescape(std::string_view s, std::string_view source, int line, std::string* out) {
  out->clear();
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\\' || i + 1 == s.size()) {
      *out += s[i];
      continue;
    }
    const char c = s[++i];
    switch (c) {
      case 't':
        *out += '\t';
        break;
      case 'n':
        *out += '\n';
        break;
      case 'r':
        *out += '\r';
        break;
      case 'f':
        *out += '\f';
        break;
      case 'u': {
        uint32_t cp;
        if (!ReadHex4(s, i + 1, &cp)) return Error(source, line, "malformed \\uxxxx escape");
        i += 4;
        if (cp >= 0xd800 && cp < 0xdc00) {  // a UTF-16 high surrogate needs its low half next
          uint32_t low;
          if (i + 2 >= s.size() || s[i + 1] != '\\' || s[i + 2] != 'u' || !ReadHex4(s, i + 3, &low) || low < 0xdc00 ||
              low >= 0xe000)
            return Error(source, line, "unpaired UTF-16 surrogate in \\u escape");
          i += 6;
          cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
        } else if (cp >= 0xdc00 && cp < 0xe000) {
          return Error(source, line, "unpaired UTF-16 surrogate in \\u escape");
        }
        AppendUtf8(cp, out);
        break;
      }
      default:
        *out += c;
        break;
    }
  }
  return Status::Ok();
}

// True when `s` ends in an odd number of backslashes, i.e. its last character is an escaping one.
bool EndsWithEscape(std::string_view s) {
  size_t n = 0;
  while (n < s.size() && s[s.size() - 1 - n] == '\\') ++n;
  return n % 2 == 1;
}

std::string_view DropLeadingBlanks(std::string_view s) {
  size_t i = 0;
  while (i < s.size() && IsBlank(s[i])) ++i;
  return s.substr(i);
}

// Splits a logical line into raw key and value (Java's key/separator/value rules) before unescaping.
void SplitKeyValue(std::string_view line, std::string_view* key, std::string_view* value) {
  size_t key_len = 0, value_start = line.size();
  bool has_separator = false, escaped = false;
  for (; key_len < line.size(); ++key_len) {
    const char c = line[key_len];
    if (!escaped && (c == '=' || c == ':')) {
      value_start = key_len + 1;
      has_separator = true;
      break;
    }
    if (!escaped && IsBlank(c)) {
      value_start = key_len + 1;
      break;
    }
    escaped = c == '\\' ? !escaped : false;
  }
  // After a blank, one '=' or ':' may still follow as the separator.
  while (value_start < line.size()) {
    const char c = line[value_start];
    if (!IsBlank(c)) {
      if (has_separator || (c != '=' && c != ':')) break;
      has_separator = true;
    }
    ++value_start;
  }
  *key = line.substr(0, key_len);
  std::string_view v = line.substr(std::min(value_start, line.size()));
  // Trim trailing blanks that are not escaped.
  while (!v.empty() && IsBlank(v.back()) && !EndsWithEscape(v.substr(0, v.size() - 1))) v.remove_suffix(1);
  *value = v;
}

}  // namespace

Result<std::vector<JavaProperty>> ParseJavaProperties(std::string_view text, std::string_view source) {
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);  // a UTF-8 byte order mark
  DBXB_RETURN_IF_ERROR(CheckText(text, source));

  // Natural lines, split at \n, \r\n or \r.
  std::vector<std::string_view> lines;
  for (size_t start = 0; start <= text.size();) {
    size_t end = text.find_first_of("\r\n", start);
    if (end == std::string_view::npos) {
      if (start < text.size()) lines.push_back(text.substr(start));
      break;
    }
    lines.push_back(text.substr(start, end - start));
    start = end + (text[end] == '\r' && end + 1 < text.size() && text[end + 1] == '\n' ? 2 : 1);
  }

  std::vector<JavaProperty> out;
  std::string logical;
  for (size_t i = 0; i < lines.size();) {
    std::string_view line = DropLeadingBlanks(lines[i]);
    const int first_line = static_cast<int>(i) + 1;
    ++i;
    if (line.empty() || line[0] == '#' || line[0] == '!') continue;  // comments never continue
    logical.clear();
    while (EndsWithEscape(line)) {
      logical.append(line.substr(0, line.size() - 1));
      if (i == lines.size()) {
        line = {};
        break;
      }
      line = DropLeadingBlanks(lines[i++]);
    }
    logical.append(line);
    std::string_view raw_key, raw_value;
    SplitKeyValue(logical, &raw_key, &raw_value);
    JavaProperty p;
    p.line = first_line;
    DBXB_RETURN_IF_ERROR(Unescape(raw_key, source, first_line, &p.key));
    DBXB_RETURN_IF_ERROR(Unescape(raw_value, source, first_line, &p.value));
    out.push_back(std::move(p));
  }
  return out;
}

}  // namespace dbxb
