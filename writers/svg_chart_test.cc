#include "writers/svg_chart.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <regex>
#include <string>

#include "tests/fixtures/golden.h"
#include "tests/fixtures/report/xml_check.h"

namespace dbxb {
namespace {

using testdata::CheckXml;

bool Contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

bool HasText(const testdata::XmlCheck& x, const std::string& text) {
  return std::find(x.texts.begin(), x.texts.end(), text) != x.texts.end();
}

// What CheckXml finds in `svg`, with a failure unless it is well-formed with the root <svg>.
testdata::XmlCheck CheckSvg(const std::string& svg) {
  testdata::XmlCheck x = CheckXml(svg);
  EXPECT_EQ(x.error, "") << svg;
  EXPECT_EQ(x.root, "svg");
  return x;
}

BarChart SampleChart() {
  BarChart c;
  c.title = "dbx-micro / get";
  c.subtitle = "bench-host: mean time per iteration with its 95 % confidence interval (shorter is faster)";
  c.entries = {{"dbx", 412.5, 405.1, 420.3, false},
               {"sqlite", 1210.4, 1190.0, 1236.2, false},
               {"lmdb", 388.0, 386.2, 390.1, false},
               {"rocksdb", 0, 0, 0, true}};
  return c;
}

// The checker must be able to fail, or the tests that rely on it prove nothing.
TEST(XmlCheckTest, RejectsMalformedDocuments) {
  for (const char* good : {"<a><b/></a>", "<a x=\"1\" y='&amp;&#38;&#x26;'>t &lt; u</a>"})
    EXPECT_EQ(CheckXml(good).error, "") << good;
  for (const char* bad : {"<a><b></a>", "<a>x & y</a>", "<a>x &nbsp; y</a>", "<a x=1></a>", "<a x=\"<\"></a>",
                          "<a x=\"1\" x=\"2\"></a>", "<a x=\"1\"y=\"2\"></a>", "<a></a><b></b>", "<a>", ""})
    EXPECT_NE(CheckXml(bad).error, "") << bad;
  const testdata::XmlCheck ok = CheckXml("<a><t>x &amp; y</t><t> z </t></a>");
  EXPECT_EQ(ok.root, "a");
  EXPECT_EQ(ok.elements, 3u);
  EXPECT_TRUE(HasText(ok, "x & y"));
  EXPECT_TRUE(HasText(ok, "z"));
}

TEST(XmlEscapeTest, EscapesMarkupAndDropsWhatXmlForbids) {
  EXPECT_EQ(XmlEscape("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c&apos;");
  EXPECT_EQ(XmlEscape("tab\tok\nline"), "tab\tok\nline");
  EXPECT_EQ(XmlEscape(std::string("bell\x07") + std::string(1, '\0') + "x"), "bellx");
  EXPECT_EQ(XmlEscape("µs 🥇"), "µs 🥇");                                  // valid UTF-8 passes through
  EXPECT_EQ(XmlEscape("bad\xC3("), "bad\xEF\xBF\xBD(");                          // truncated sequence
  EXPECT_EQ(XmlEscape("\xED\xA0\x80"), "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");  // a surrogate is invalid
  EXPECT_EQ(XmlEscape("\xC0\xAF"), "\xEF\xBF\xBD\xEF\xBF\xBD");                  // overlong '/'
  EXPECT_EQ(XmlEscape("\xEF\xBF\xBE"), "");                                      // U+FFFE is not an XML character
}

TEST(SvgChartTest, MatchesGolden) {
  testdata::ExpectMatchesGolden("report/chart_sample.svg", RenderTimeBarChart(SampleChart()));
}

TEST(SvgChartTest, IsWellFormedAndNamesEveryEngine) {
  const testdata::XmlCheck x = CheckSvg(RenderTimeBarChart(SampleChart()));
  for (const char* engine : {"dbx", "sqlite", "lmdb", "rocksdb"}) EXPECT_TRUE(HasText(x, engine)) << engine;
  EXPECT_TRUE(HasText(x, "failed"));
  EXPECT_TRUE(HasText(x, "1.210 µs"));
  EXPECT_TRUE(HasText(x, "dbx-micro / get"));
  // Ticks in the unit of the largest bound (1236.2 ns -> µs), in round steps up to the next one.
  EXPECT_TRUE(HasText(x, "0"));
  EXPECT_TRUE(HasText(x, "0.5 µs"));
  EXPECT_TRUE(HasText(x, "1.5 µs"));
  EXPECT_FALSE(HasText(x, "2 µs"));
}

TEST(SvgChartTest, HostileTextStaysText) {
  BarChart c = SampleChart();
  c.title = "<script>alert('x')</script> & \"quotes\"";
  c.entries[0].label = "en<g>ine&";
  c.entries[1].label = "bad\xFFutf8\x01";
  const std::string svg = RenderTimeBarChart(c);
  const testdata::XmlCheck x = CheckSvg(svg);
  EXPECT_EQ(svg.find("<script"), std::string::npos);
  EXPECT_TRUE(HasText(x, "<script>alert('x')</script> & \"quotes\""));
  EXPECT_TRUE(HasText(x, "en<g>ine&"));
  EXPECT_TRUE(HasText(x, "bad\xEF\xBF\xBDutf8"));
}

TEST(SvgChartTest, DegenerateInputsStillDrawAChart) {
  BarChart all_failed;
  all_failed.title = "t";
  all_failed.entries = {{"a", 0, 0, 0, true}};
  EXPECT_EQ(CheckXml(RenderTimeBarChart(all_failed)).error, "");
  BarChart empty;
  EXPECT_EQ(CheckXml(RenderTimeBarChart(empty)).error, "");
  BarChart odd;
  odd.entries = {{"nan", NAN, NAN, INFINITY, false}, {"neg", -5, -6, -4, false}, {"big", 2.5e9, 2.4e9, 2.6e9, false}};
  const std::string svg = RenderTimeBarChart(odd);
  const testdata::XmlCheck x = CheckSvg(svg);
  EXPECT_EQ(svg.find("nan\""), std::string::npos) << "no NaN coordinates";
  EXPECT_EQ(svg.find("inf\""), std::string::npos);
  EXPECT_TRUE(HasText(x, "3 s"));  // 2.6 s rounds up to a 3 s axis in 1 s steps
}

LatencyChart SampleLatencyChart() {
  LatencyChart c;
  c.title = "ycsb / workloada / run";
  c.subtitle = "bench-host: service time by percentile, every measured operation (lower is better)";
  c.curves = {{"sqlite",
               {{0, 1200}, {50, 4321}, {90, 8000}, {99, 22685}, {99.9, 58333}, {100, 421297}},
               "p50 4.321 µs, p99 22.69 µs",
               false},
              {"lmdb",
               {{0, 506}, {50, 1234.5}, {99, 6481}, {99.99, 49689}, {100, 120364}},
               "p50 1.234 µs, p99 6.481 µs",
               false},
              {"rocksdb", {}, "", true}};
  return c;
}

// --- Bar charts stay readable when one engine is hundreds of times slower ---

BarChart WideChart() {
  BarChart c;
  c.title = "sqlite-vps / cached / update";
  c.subtitle = "bench-host: mean time per iteration (shorter is faster)";
  c.entries = {{"dbx", 1.1e6, 1.0e6, 1.2e6, false},
               {"lmdb", 2.1e6, 2.0e6, 2.2e6, false},
               {"postgres", 383e6, 370e6, 395e6, false}};
  return c;
}

// The width of the bar whose tooltip starts with `engine`.
double BarWidth(const std::string& svg, const std::string& engine) {
  std::smatch m;
  const std::regex bar("<rect x=\"[0-9.]+\" y=\"[0-9.]+\" width=\"([0-9.]+)\"[^>]*><title>" + engine + ":");
  return std::regex_search(svg, m, bar) ? std::stod(m[1]) : -1;
}

TEST(BarChartScaleTest, ALogAxisBeyondTwentyTimesSaysSo) {
  const std::string svg = RenderTimeBarChart(WideChart());
  CheckSvg(svg);
  EXPECT_TRUE(Contains(svg, "Log scale: the times span 348×")) << svg;
  // On a linear axis DBX's bar would be 1.1 / 383 of PostgreSQL's: under 2 px. Here it is a bar.
  EXPECT_GT(BarWidth(svg, "dbx"), 50);
  EXPECT_GT(BarWidth(svg, "postgres"), BarWidth(svg, "lmdb"));
  EXPECT_GT(BarWidth(svg, "lmdb"), BarWidth(svg, "dbx"));
  testdata::ExpectMatchesGolden("report/chart_log_sample.svg", svg);
}

TEST(BarChartScaleTest, WithinTwentyTimesTheAxisStaysLinear) {
  BarChart c = WideChart();
  c.entries[2].value = 20e6;  // 18×
  c.entries[2].lower = 19e6;
  c.entries[2].upper = 21e6;
  const std::string svg = RenderTimeBarChart(c);
  EXPECT_FALSE(Contains(svg, "Log scale")) << svg;
  EXPECT_NEAR(BarWidth(svg, "dbx") / BarWidth(svg, "postgres"), 1.1 / 20, 0.01);
}

TEST(LatencyChartTest, MatchesGolden) {
  testdata::ExpectMatchesGolden("report/latency_chart_sample.svg", RenderLatencyPercentileChart(SampleLatencyChart()));
}

TEST(LatencyChartTest, IsWellFormedWithTailTicksAndEveryEngine) {
  const std::string svg = RenderLatencyPercentileChart(SampleLatencyChart());
  const testdata::XmlCheck x = CheckSvg(svg);
  for (const char* text : {"sqlite", "lmdb", "rocksdb (failed)", "0%", "90%", "99%", "99.9%", "99.99%", "max", "100 ns",
                           "1 µs", "10 µs", "100 µs", "1 ms"})
    EXPECT_TRUE(HasText(x, text)) << text;
  EXPECT_FALSE(HasText(x, "99.999%")) << "the axis ends at the highest percentile below 100";
  EXPECT_FALSE(HasText(x, "10 ms"));
  EXPECT_EQ(std::count(svg.begin(), svg.end(), '\n') > 0, true);
  EXPECT_NE(svg.find("<polyline points=\"84.0,"), std::string::npos) << "p0 sits on the y axis";
}

TEST(LatencyChartTest, DegenerateInputs) {
  LatencyChart empty;
  EXPECT_EQ(CheckXml(RenderLatencyPercentileChart(empty)).error, "");
  LatencyChart odd;
  odd.curves = {{"a<b", {{50, NAN}, {99, -1}, {120, 5}, {99.5, 1000}, {100, 1000}}, "x & y", false}};
  const std::string svg = RenderLatencyPercentileChart(odd);
  const testdata::XmlCheck x = CheckSvg(svg);
  EXPECT_TRUE(HasText(x, "a<b"));
  EXPECT_EQ(svg.find("nan"), std::string::npos);
  EXPECT_EQ(svg.find("inf"), std::string::npos);
}

TEST(SvgChartTest, EngineColorsAreStable) {
  EXPECT_EQ(EngineColor("sqlite"), "#f28e2b");
  EXPECT_EQ(EngineColor("wiredtiger"), EngineColor("wiredtiger"));
  EXPECT_EQ(EngineColor("wiredtiger").size(), 7u);
}

}  // namespace
}  // namespace dbxb
