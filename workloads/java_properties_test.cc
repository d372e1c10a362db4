#include "workloads/java_properties.h"

#include <gtest/gtest.h>

#include <map>

namespace dbxb {
namespace {

std::vector<JavaProperty> Parse(std::string_view text) {
  auto r = ParseJavaProperties(text, "t.properties");
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return r.ok() ? r.value() : std::vector<JavaProperty>{};
}

std::map<std::string, std::string> AsMap(const std::vector<JavaProperty>& props) {
  std::map<std::string, std::string> m;
  for (const auto& p : props) m[p.key] = p.value;
  return m;
}

TEST(JavaPropertiesTest, SeparatorsAndBlanks) {
  const auto m =
      AsMap(Parse("a=1\n"
                  "b = 2\n"
                  "c:3\n"
                  "d : 4\n"
                  "e 5\n"
                  "   f\t=\t6   \n"
                  "g=\n"
                  "h\n"
                  "i==7\n"
                  "j=a=b:c\n"));
  EXPECT_EQ(m.at("a"), "1");
  EXPECT_EQ(m.at("b"), "2");
  EXPECT_EQ(m.at("c"), "3");
  EXPECT_EQ(m.at("d"), "4");
  EXPECT_EQ(m.at("e"), "5");
  EXPECT_EQ(m.at("f"), "6");  // leading and trailing blanks trimmed
  EXPECT_EQ(m.at("g"), "");
  EXPECT_EQ(m.at("h"), "");
  EXPECT_EQ(m.at("i"), "=7");  // only the first separator separates
  EXPECT_EQ(m.at("j"), "a=b:c");
  EXPECT_EQ(m.size(), 10u);
}

TEST(JavaPropertiesTest, CommentsAndBlankLinesAndLineNumbers) {
  const auto props = Parse(
      "# comment\n"
      "! also a comment\n"
      "\n"
      "   # indented comment\n"
      "a=1 # not a comment: part of the value\n"
      "\t\n"
      "b=2\n");
  ASSERT_EQ(props.size(), 2u);
  EXPECT_EQ(props[0].key, "a");
  EXPECT_EQ(props[0].value, "1 # not a comment: part of the value");
  EXPECT_EQ(props[0].line, 5);
  EXPECT_EQ(props[1].line, 7);
}

TEST(JavaPropertiesTest, LineContinuations) {
  const auto props = Parse(
      "list=a,\\\n"
      "     b,\\\n"
      "     c\n"
      "# a comment ending in a backslash does not continue \\\n"
      "two=x\\\\\n"  // an even number of backslashes: no continuation
      "next=y\n"
      "odd=x\\\\\\\n"  // three: a literal backslash, then a continuation
      "  z\n"
      "cont=\\\n"
      "# not a comment inside a continuation\n"
      "last=end\\");
  const auto m = AsMap(props);
  EXPECT_EQ(m.at("list"), "a,b,c");
  EXPECT_EQ(m.at("two"), "x\\");
  EXPECT_EQ(m.at("next"), "y");
  EXPECT_EQ(m.at("odd"), "x\\z");
  EXPECT_EQ(m.at("cont"), "# not a comment inside a continuation");
  EXPECT_EQ(m.at("last"), "end");
  EXPECT_EQ(props[0].line, 1);
  EXPECT_EQ(props[2].line, 6);
}

TEST(JavaPropertiesTest, LineEndings) {
  EXPECT_EQ(AsMap(Parse("a=1\r\nb=2\r\n")), (std::map<std::string, std::string>{{"a", "1"}, {"b", "2"}}));
  EXPECT_EQ(AsMap(Parse("a=1\rb=2")), (std::map<std::string, std::string>{{"a", "1"}, {"b", "2"}}));
  const auto props = Parse("a=1\r\n\r\nb=\\\r\n  2\r\nc=3");
  EXPECT_EQ(AsMap(props).at("b"), "2");
  EXPECT_EQ(props.back().line, 5);
}

TEST(JavaPropertiesTest, Escapes) {
  const auto m =
      AsMap(Parse("key\\=with\\:seps\\ x=v\n"
                  "tab=a\\tb\n"
                  "uni=caf\\u00e9 \\u20ac \\ud83d\\ude00\n"
                  "other=\\q\\\\\n"
                  "trail=keep\\ \n"));
  EXPECT_EQ(m.at("key=with:seps x"), "v");
  EXPECT_EQ(m.at("tab"), "a\tb");
  EXPECT_EQ(m.at("uni"), "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
  EXPECT_EQ(m.at("other"), "q\\");
  EXPECT_EQ(m.at("trail"), "keep ");  // an escaped trailing blank is kept
}

TEST(JavaPropertiesTest, Utf8TextAndByteOrderMark) {
  const auto m = AsMap(Parse("\xEF\xBB\xBFname=caf\xc3\xa9\n"));
  EXPECT_EQ(m.at("name"), "caf\xc3\xa9");
  EXPECT_TRUE(Parse("").empty());
  EXPECT_TRUE(Parse("\n\n# only comments\n").empty());
}

TEST(JavaPropertiesTest, RejectsNonText) {
  auto r = ParseJavaProperties("a=1\nb=\x01\n", "bin");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "bin:2: not a text file (control byte 0x01)");
  EXPECT_EQ(ParseJavaProperties(std::string_view("a=\0", 3), "z").status().message(),
            "z:1: not a text file (control byte 0x00)");
  EXPECT_EQ(ParseJavaProperties("x\ny\nname=caf\xe9\n", "l1").status().message(), "l1:3: not UTF-8 text (byte 0xe9)");
  EXPECT_FALSE(ParseJavaProperties("a=\xc0\xaf", "overlong").ok());
  EXPECT_FALSE(ParseJavaProperties("a=\xed\xa0\x80", "surrogate").ok());
  EXPECT_FALSE(ParseJavaProperties("a=\xe2\x82", "truncated").ok());
}

TEST(JavaPropertiesTest, RejectsMalformedUnicodeEscapes) {
  EXPECT_EQ(ParseJavaProperties("\n\na=\\u12x4\n", "f").status().message(), "f:3: malformed \\uxxxx escape");
  EXPECT_EQ(ParseJavaProperties("a=\\u12", "f").status().message(), "f:1: malformed \\uxxxx escape");
  EXPECT_FALSE(ParseJavaProperties("a=\\ud83d", "f").ok());
  EXPECT_FALSE(ParseJavaProperties("a=\\ude00", "f").ok());
}

}  // namespace
}  // namespace dbxb
