#include "reports/testdata/report/xml_check.h"

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

namespace dbxb::testdata {
namespace {

bool NameStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == ':'; }
bool NameChar(char c) { return NameStart(c) || std::isdigit(static_cast<unsigned char>(c)) || c == '-' || c == '.'; }

class Parser {
 public:
  explicit Parser(const std::string& doc) : s_(doc) {}

  XmlCheck Run() {
    SkipSpace();
    if (s_.compare(i_, 5, "<?xml") == 0) {
      size_t end = s_.find("?>", i_);
      if (end == std::string::npos) return Fail("unterminated XML declaration");
      i_ = end + 2;
    }
    SkipMisc();
    if (i_ >= s_.size() || s_[i_] != '<') return Fail("no root element");
    if (!Element()) return result_;
    SkipMisc();
    if (i_ != s_.size()) return Fail("content after the root element");
    return result_;
  }

 private:
  XmlCheck Fail(const std::string& what) {
    if (result_.error.empty()) result_.error = what + " at byte " + std::to_string(i_);
    return result_;
  }

  void SkipSpace() {
    while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_]))) ++i_;
  }

  // Whitespace and comments between top-level constructs.
  void SkipMisc() {
    for (;;) {
      SkipSpace();
      if (s_.compare(i_, 4, "<!--") != 0) return;
      size_t end = s_.find("-->", i_ + 4);
      if (end == std::string::npos) {
        Fail("unterminated comment");
        i_ = s_.size();
        return;
      }
      i_ = end + 3;
    }
  }

  bool Name(std::string* name) {
    if (i_ >= s_.size() || !NameStart(s_[i_])) {
      Fail("expected a name");
      return false;
    }
    size_t start = i_;
    while (i_ < s_.size() && NameChar(s_[i_])) ++i_;
    *name = s_.substr(start, i_ - start);
    return true;
  }

  // Decodes the reference at s_[i_] == '&' into *out.
  bool Reference(std::string* out) {
    size_t end = s_.find(';', i_);
    if (end == std::string::npos || end - i_ > 10) {
      Fail("'&' that starts no entity");
      return false;
    }
    std::string ref = s_.substr(i_ + 1, end - i_ - 1);
    static const std::pair<const char*, const char*> kEntities[] = {
        {"amp", "&"}, {"lt", "<"}, {"gt", ">"}, {"quot", "\""}, {"apos", "'"}};
    bool known = false;
    for (const auto& [name, value] : kEntities) {
      if (ref == name) {
        *out += value;
        known = true;
      }
    }
    if (!known) {
      bool hex =
          ref.size() > 2 && ref[0] == '#' && ref[1] == 'x' &&
          std::all_of(ref.begin() + 2, ref.end(), [](char c) { return std::isxdigit(static_cast<unsigned char>(c)); });
      bool dec = ref.size() > 1 && ref[0] == '#' && std::all_of(ref.begin() + 1, ref.end(), [](char c) {
                   return std::isdigit(static_cast<unsigned char>(c));
                 });
      if (!hex && !dec) {
        Fail("unknown entity &" + ref + ";");
        return false;
      }
      *out += '?';
    }
    i_ = end + 1;
    return true;
  }

  bool Attributes(bool* self_closing) {
    std::vector<std::string> seen;
    for (;;) {
      size_t before = i_;
      SkipSpace();
      if (i_ >= s_.size()) {
        Fail("unterminated tag");
        return false;
      }
      if (s_[i_] == '>') {
        ++i_;
        *self_closing = false;
        return true;
      }
      if (s_.compare(i_, 2, "/>") == 0) {
        i_ += 2;
        *self_closing = true;
        return true;
      }
      if (i_ == before) {
        Fail("attributes must be separated by whitespace");
        return false;
      }
      std::string name;
      if (!Name(&name)) return false;
      if (std::find(seen.begin(), seen.end(), name) != seen.end()) {
        Fail("duplicate attribute " + name);
        return false;
      }
      seen.push_back(name);
      SkipSpace();
      if (i_ >= s_.size() || s_[i_] != '=') {
        Fail("attribute " + name + " without '='");
        return false;
      }
      ++i_;
      SkipSpace();
      if (i_ >= s_.size() || (s_[i_] != '"' && s_[i_] != '\'')) {
        Fail("unquoted value of attribute " + name);
        return false;
      }
      char quote = s_[i_++];
      std::string value;
      while (i_ < s_.size() && s_[i_] != quote) {
        if (s_[i_] == '<') {
          Fail("'<' in the value of attribute " + name);
          return false;
        }
        if (s_[i_] == '&') {
          if (!Reference(&value)) return false;
        } else {
          value += s_[i_++];
        }
      }
      if (i_ >= s_.size()) {
        Fail("unterminated value of attribute " + name);
        return false;
      }
      ++i_;
    }
  }

  void AddText(std::string text) {
    size_t a = text.find_first_not_of(" \t\r\n");
    if (a == std::string::npos) return;
    size_t b = text.find_last_not_of(" \t\r\n");
    result_.texts.push_back(text.substr(a, b - a + 1));
  }

  // s_[i_] == '<': one element and everything inside it.
  bool Element() {
    ++i_;
    std::string name;
    if (!Name(&name)) return false;
    if (result_.root.empty()) result_.root = name;
    ++result_.elements;
    bool self_closing = false;
    if (!Attributes(&self_closing)) return false;
    if (self_closing) return true;
    std::string text;
    for (;;) {
      if (i_ >= s_.size()) {
        Fail("element " + name + " is never closed");
        return false;
      }
      char c = s_[i_];
      if (c == '&') {
        if (!Reference(&text)) return false;
      } else if (c != '<') {
        if (c == '>' && s_.compare(i_ - 2, 2, "]]") == 0) {
          Fail("']]>' in text");
          return false;
        }
        text += c;
        ++i_;
      } else if (s_.compare(i_, 4, "<!--") == 0) {
        size_t end = s_.find("-->", i_ + 4);
        if (end == std::string::npos) {
          Fail("unterminated comment");
          return false;
        }
        i_ = end + 3;
      } else if (s_.compare(i_, 2, "</") == 0) {
        i_ += 2;
        std::string closing;
        if (!Name(&closing)) return false;
        SkipSpace();
        if (closing != name) {
          Fail("</" + closing + "> closes <" + name + ">");
          return false;
        }
        if (i_ >= s_.size() || s_[i_] != '>') {
          Fail("unterminated closing tag");
          return false;
        }
        ++i_;
        AddText(text);
        return true;
      } else {
        AddText(text);
        text.clear();
        if (!Element()) return false;
      }
    }
  }

  const std::string& s_;
  size_t i_ = 0;
  XmlCheck result_;
};

}  // namespace

XmlCheck CheckXml(const std::string& document) { return Parser(document).Run(); }

}  // namespace dbxb::testdata
