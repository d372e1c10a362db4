// A reader for Java .properties text (java.util.Properties.load), the format of YCSB workload files.
//
// Accepted, as Java does: `key=value`, `key = value`, `key:value`, `key value`; comment lines whose
// first non-blank character is `#` or `!`; blank lines; a line ending in an odd number of backslashes
// continues on the next line (whose leading blanks are dropped); \n, \r\n and \r line ends; escapes
// \t \n \r \f \uXXXX, and \<c> for any other c (so `\=`, `\:`, `\ `, `\\` put those characters in a key).
// Unlike Java, trailing blanks of a value are trimmed (YCSB would reject `zipfian ` as an unknown
// distribution; nobody means the blank) and the text must be UTF-8 without control characters other
// than tab, form feed and line ends, so that a binary file is refused instead of read as properties.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace dbxb {

struct JavaProperty {
  std::string key;
  std::string value;
  int line = 0;  ///< 1-based line where the property starts
};

/// The properties of `text` in file order (a repeated key appears twice; the later one wins in Java).
/// InvalidArgument "<source_name>:<line>: <problem>" for non-text input or a malformed \u escape.
Result<std::vector<JavaProperty>> ParseJavaProperties(std::string_view text, std::string_view source_name);

}  // namespace dbxb
