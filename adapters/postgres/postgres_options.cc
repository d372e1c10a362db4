#include "adapters/postgres/postgres_options.h"

#include <libpq-fe.h>

#include <memory>

#include "adapters/native_options.h"
#include "adapters/postgres/postgres_cluster.h"

namespace dbxb::postgres_internal {
namespace {

constexpr char kStartTimeout[] = "postgres.start_timeout_s";
constexpr char kListen[] = "postgres.listen";
constexpr char kUrl[] = "postgres.url";
constexpr char kSchema[] = "postgres.schema";
constexpr char kRunId[] = "postgres.run_id";
constexpr char kConnectTimeout[] = "postgres.connect_timeout_s";

Status Seconds(const std::string& key, const std::string& value, int min, int* out) {
  return ParseNativeNumber(key, value, "seconds", min, 3600, out);
}

// Lower-case letters, digits and '_', starting with a letter or '_', 1..63 bytes: a PostgreSQL
// identifier that needs no quoting.
bool PlainIdentifier(const std::string& s) {
  if (s.empty() || s.size() > 63 || (s[0] >= '0' && s[0] <= '9')) return false;
  for (char c : s)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
  return true;
}

struct ConninfoDeleter {
  void operator()(PQconninfoOption* o) const { PQconninfoFree(o); }
};
using ParsedConninfo = std::unique_ptr<PQconninfoOption, ConninfoDeleter>;

Result<ParsedConninfo> ParseUrl(const std::string& url) {
  char* error = nullptr;
  ParsedConninfo parsed(PQconninfoParse(url.c_str(), &error));
  if (parsed == nullptr) {
    std::string why = error != nullptr ? error : "out of memory";
    if (error != nullptr) PQfreemem(error);
    while (!why.empty() && (why.back() == '\n' || why.back() == ' ')) why.pop_back();
    return Status::InvalidArgument(std::string(kUrl) + ": not a libpq connection URI or string: " + why);
  }
  return parsed;
}

Status ParseOne(const std::string& key, const std::string& value, PostgresOptions* o) {
  if (key == kStartTimeout) return Seconds(key, value, 0, &o->start_timeout_seconds);
  if (key == kConnectTimeout) return Seconds(key, value, 1, &o->connect_timeout_seconds);
  if (key == kListen) {
    if (value != "unix" && value != "tcp")
      return Status::InvalidArgument(key + ": expected unix or tcp, got '" + value + "'");
    o->tcp = value == "tcp";
  } else if (key == kUrl) {
    if (value.empty()) return Status::InvalidArgument(key + ": empty");
    DBXB_RETURN_IF_ERROR(ParseUrl(value).status());
    o->url = value;
  } else if (key == kSchema) {
    if (!PlainIdentifier(value))
      return Status::InvalidArgument(key + ": '" + value +
                                     "' is not a plain identifier (a-z, 0-9 and _, not starting with a digit, "
                                     "at most 63)");
    if (value.rfind("pg_", 0) == 0 || value == "public" || value == "information_schema")
      return Status::InvalidArgument(key + ": '" + value + "' is a schema of the server's own");
    o->schema = value;
  } else if (key == kRunId) {
    if (value.empty() || value.size() > 32 ||
        value.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789") != std::string::npos)
      return Status::InvalidArgument(key + ": expected 1 to 32 lower-case letters and digits, got '" + value + "'");
    o->run_id = value;
  }
  return Status::Ok();
}

}  // namespace

const std::vector<NativeOption> kOptions = {
    {kStartTimeout, "seconds to wait for the private server to start, 0 to 3600", "60"},
    {kListen,
     "`unix`, or `tcp`: the private server also on 127.0.0.1 (a free port, password authentication), the sessions "
     "over TCP",
     "`unix`"},
    {kUrl, "a server you run (libpq URI or `key=value`; docs/engines.md)", "a private server"},
    {kSchema, "with `postgres.url`: the schema of the run's own (a-z, 0-9, `_`)", "`dbx_bench_<run id>`"},
    {kRunId, "with `postgres.url`: the run the schema belongs to (set by `--clients` for its clients)", "a random one"},
    {kConnectTimeout, "with `postgres.url`: seconds to wait for the server, 1 to 3600", "10"},
};

Status CheckOptionValues(const AdapterOptions& options) {
  PostgresOptions o;
  for (const auto& [key, value] : options.native_options)
    if (key.rfind("postgres.", 0) == 0) DBXB_RETURN_IF_ERROR(ParseOne(key, value, &o));
  return Status::Ok();
}

Status ParseOptions(const AdapterOptions& options, PostgresOptions* out) {
  PostgresOptions o;
  bool private_only = false, existing_only = false;
  std::string private_key, existing_key;
  for (const auto& [key, value] : options.native_options) {
    if (key.rfind("postgres.", 0) != 0) continue;
    DBXB_RETURN_IF_ERROR(ParseOne(key, value, &o));
    if (key == kListen || key == kStartTimeout) private_only = true, private_key = key;
    if (key == kSchema || key == kRunId || key == kConnectTimeout) existing_only = true, existing_key = key;
  }
  if (o.existing_server() && private_only)
    return Status::InvalidArgument(private_key + ": applies to the private server, not to the server " +
                                   std::string(kUrl) + " names");
  if (!o.existing_server() && existing_only)
    return Status::InvalidArgument(existing_key + ": applies with " + std::string(kUrl) + " only");
  *out = o;
  return Status::Ok();
}

Result<std::string> ExistingServerConninfo(const PostgresOptions& options, const std::string& synchronous_commit) {
  Result<ParsedConninfo> parsed = ParseUrl(options.url);
  if (!parsed.ok()) return parsed.status();
  std::string out, session_options;
  bool has_timeout = false;
  for (PQconninfoOption* o = parsed->get(); o->keyword != nullptr; ++o) {
    if (o->val == nullptr) continue;
    const std::string keyword = o->keyword;
    if (keyword == "options") {
      session_options = o->val;
      continue;
    }
    has_timeout |= keyword == "connect_timeout";
    out += keyword + "=" + ConninfoQuoted(o->val) + " ";
  }
  if (!has_timeout) out += "connect_timeout=" + std::to_string(options.connect_timeout_seconds) + " ";
  session_options += " -c search_path=" + options.schema + " -c synchronous_commit=" + synchronous_commit;
  return out + "options=" + ConninfoQuoted(session_options) + " fallback_application_name=dbx-bench";
}

std::string SchemaName(const PostgresOptions& options, const std::string& run_id) {
  return options.schema.empty() ? "dbx_bench_" + run_id : options.schema;
}

std::string RedactedUrl(const std::string& url) {
  Result<ParsedConninfo> parsed = ParseUrl(url);
  if (!parsed.ok()) return "(unparsable)";
  std::string out;
  for (PQconninfoOption* o = parsed->get(); o->keyword != nullptr; ++o) {
    const std::string keyword = o->keyword;
    if (o->val == nullptr || *o->val == '\0') continue;
    if (keyword == "host" || keyword == "hostaddr" || keyword == "port" || keyword == "dbname" || keyword == "user")
      out += (out.empty() ? "" : " ") + keyword + "=" + o->val;
  }
  return out.empty() ? "(libpq defaults)" : out;
}

}  // namespace dbxb::postgres_internal
