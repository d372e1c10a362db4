// A small XML well-formedness checker for the chart tests, so that they need no XML library: elements
// nest and close, attributes are quoted and unique, '<' never appears raw in text or attributes, every
// '&' starts a known entity or a character reference, and there is exactly one root element.
// Not a validating parser: no DTDs, no namespaces checks, no processing instructions beyond <?xml ...?>.
#pragma once

#include <string>
#include <vector>

namespace dbxb::testdata {

struct XmlCheck {
  std::string error;               ///< empty when well-formed, else what is wrong and where (byte offset)
  std::string root;                ///< name of the root element
  std::vector<std::string> texts;  ///< character data of every element, entities decoded, trimmed, non-empty
  size_t elements = 0;
};

XmlCheck CheckXml(const std::string& document);

}  // namespace dbxb::testdata
