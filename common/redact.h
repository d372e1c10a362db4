// Secrets never recorded: a password in a connection string or URL given on the command line.
#pragma once

#include <string>

namespace dbxb {

/// `text` with every password in it replaced by "***": the value of "password=" (a libpq key=value
/// connection string, or a URL's query parameter) and the part after "user:" in "scheme://user:...@host".
inline std::string RedactPasswords(std::string text) {
  for (size_t at = text.find("password="); at != std::string::npos; at = text.find("password=", at + 1)) {
    size_t from = at + 9, to = from;
    if (to < text.size() && text[to] == '\'') {  // a quoted value: up to the closing quote
      to = text.find('\'', to + 1);
      to = to == std::string::npos ? text.size() : to + 1;
    } else {
      to = text.find_first_of(" &'\"", from);
      if (to == std::string::npos) to = text.size();
    }
    text.replace(from, to - from, "***");
  }
  for (size_t scheme = text.find("://"); scheme != std::string::npos; scheme = text.find("://", scheme + 3)) {
    const size_t authority = scheme + 3;
    const size_t end = text.find_first_of("/?# '\"", authority);
    const size_t at = text.rfind('@', end == std::string::npos ? text.size() : end);
    if (at == std::string::npos || at < authority) continue;
    const size_t colon = text.find(':', authority);
    if (colon != std::string::npos && colon < at) text.replace(colon + 1, at - colon - 1, "***");
  }
  return text;
}

}  // namespace dbxb
