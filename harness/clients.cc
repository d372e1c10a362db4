#include "harness/clients.h"

#include <fmt/format.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <thread>

#include "common/disk_usage.h"
#include "common/output_dir.h"
#include "common/server_usage.h"
#include "common/spawn.h"
#include "harness/client_barrier.h"
#include "harness/resources.h"
#include "harness/signal_handlers.h"
#include "harness/work_dir.h"
#include "records/json_results.h"
#include "records/phase_merge.h"
#include "writers/console_reporter.h"

extern char** environ;

namespace dbxb {
namespace {

namespace fs = std::filesystem;

constexpr auto kStopGrace = std::chrono::seconds(30);

// The options the parent keeps, each followed by a value.
const std::vector<std::string>& ParentOptions() {
  static const std::vector<std::string> options = {"--clients",       "--out",      "--format",
                                                   "--hdr-log",       "--data-dir", "--seed",
                                                   "--save-baseline", "--client",   "--client-work-dir"};
  return options;
}

std::string LastLine(const std::string& path) {
  std::ifstream in(path);
  std::string line, last;
  while (std::getline(in, line))
    if (line.find_first_not_of(" \t\r") != std::string::npos) last = line;
  return last.size() > 300 ? last.substr(0, 300) + "..." : last;
}

// What the shared server spent over one phase's measured part, and the run's disk at its end.
struct PhaseSpan {
  ServerTotals at_start;
  std::optional<ServerResourceUsage> server;
  uint64_t disk_bytes = 0;
};

struct Client {
  pid_t pid = 0;
  int fd = -1;                         // the parent's end of its barrier socket; -1 once it closed
  std::string buffer;                  // what it wrote, up to the next newline
  std::optional<std::string> waiting;  // the tag it waits at
  bool ended = false;
  int exit_code = 0;
  std::string log;
  std::string failure;     // what it said failed ("fail ..."), if anything
  uint64_t failed_at = 0;  // the order its failure came in (ClientEnd::failed_at)
};

// The client processes of one run and the barrier between them.
class ClientGroup {
 public:
  // `closed` is called with the engine's name when every client closed a database of it.
  ClientGroup(std::string work_dir, std::function<Status(const std::string& engine)> closed)
      : work_dir_(std::move(work_dir)), closed_(std::move(closed)) {}
  ~ClientGroup() { StopAll(); }

  Status Start(const std::vector<std::string>& argv, const std::vector<std::string>& env, const std::string& log) {
    int fds[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0)
      return Status::IOError(std::string("--clients: socketpair: ") + std::strerror(errno));
    SpawnOptions o;
    o.argv = argv;
    o.env = env;
    o.output_file = log;
    o.fd3 = fds[1];
    o.parent_death_signal = SIGTERM;  // a client ends with its parent, however the parent ends
    Result<pid_t> pid = Spawn(o);
    close(fds[1]);
    if (!pid.ok()) {
      close(fds[0]);
      return pid.status().WithContext("--clients");
    }
    clients_.push_back(Client{*pid, fds[0], "", std::nullopt, false, 0, log, ""});
    return Status::Ok();
  }

  // Answers the barrier until every client ended.
  void Serve() {
    bool forwarded = false;
    while (std::any_of(clients_.begin(), clients_.end(), [](const Client& c) { return !c.ended; })) {
      if (InterruptRequested() && !forwarded) {
        forwarded = true;
        Abort("interrupted");
      }
      ReadLines();
      Reap();
      Decide();
      if (aborted_ && std::chrono::steady_clock::now() > abort_deadline_)
        for (Client& c : clients_)
          if (!c.ended) kill(c.pid, SIGKILL);
    }
  }

  const std::vector<Client>& clients() const { return clients_; }
  const std::string& abort_reason() const { return abort_reason_; }
  const std::map<std::string, PhaseSpan>& spans() const { return spans_; }

 private:
  void ReadLines() {
    std::vector<pollfd> fds;
    for (const Client& c : clients_)
      if (c.fd >= 0) fds.push_back(pollfd{c.fd, POLLIN, 0});
    if (fds.empty() || poll(fds.data(), fds.size(), 100) <= 0) {
      if (fds.empty()) std::this_thread::sleep_for(std::chrono::milliseconds(20));
      return;
    }
    for (Client& c : clients_) {
      if (c.fd < 0) continue;
      pollfd p{c.fd, POLLIN, 0};
      if (poll(&p, 1, 0) <= 0) continue;
      char buf[512];
      const ssize_t n = read(c.fd, buf, sizeof buf);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {  // it is ending
        close(c.fd);
        c.fd = -1;
        c.waiting.reset();
        continue;
      }
      c.buffer.append(buf, static_cast<size_t>(n));
      for (size_t nl; (nl = c.buffer.find('\n')) != std::string::npos; c.buffer.erase(0, nl + 1)) {
        if (c.buffer.compare(0, 5, "wait ") == 0) c.waiting = c.buffer.substr(5, nl - 5);
        if (c.buffer.compare(0, 5, "fail ") == 0 && c.failure.empty()) {
          c.failure = c.buffer.substr(5, nl - 5);
          if (c.failed_at == 0) c.failed_at = ++failures_;
          Abort(fmt::format("client {}: {}", &c - clients_.data() + 1, c.failure));
        }
      }
    }
  }

  void Reap() {
    for (Client& c : clients_) {
      if (c.ended || c.fd >= 0) continue;
      Result<std::optional<ChildExit>> exit = WaitChild(c.pid, std::chrono::milliseconds(0));
      if (!exit.ok() || !exit->has_value()) continue;
      c.ended = true;
      c.exit_code = (*exit)->code;
      if (c.exit_code != 0 && c.exit_code != 130 && c.failed_at == 0) c.failed_at = ++failures_;
      if (c.exit_code != 0) Abort(fmt::format("client {} ended (exit {})", &c - clients_.data() + 1, c.exit_code));
    }
  }

  // Every client still connected waits: the same tag goes on, once every client is there; anything
  // else aborts.
  void Decide() {
    std::vector<const Client*> connected;
    for (const Client& c : clients_)
      if (c.fd >= 0) connected.push_back(&c);
    if (connected.empty()) return;
    for (const Client* c : connected)
      if (!c->waiting) return;  // still working
    if (aborted_) return Answer("abort");
    const std::string tag = *connected.front()->waiting;
    for (const Client* c : connected)
      if (*c->waiting != tag) return Abort("the clients went different ways: " + Where());
    if (connected.size() < clients_.size())
      return Abort(fmt::format("a client ended while the others wait at '{}'", tag));
    Measure(tag);
    Answer("go");
  }

  std::string Where() const {
    std::string out;
    for (size_t i = 0; i < clients_.size(); ++i)
      out += fmt::format("{}client {} at '{}'", i == 0 ? "" : ", ", i + 1, clients_[i].waiting.value_or("-"));
    return out;
  }

  void Answer(const char* word) {
    for (Client& c : clients_) {
      if (c.fd < 0 || !c.waiting) continue;
      const std::string line = std::string(word) + "\n";
      (void)!send(c.fd, line.data(), line.size(), MSG_NOSIGNAL);  // a client gone is no SIGPIPE here
      c.waiting.reset();
    }
  }

  // Stops every client as a first Ctrl-C does; the first reason is kept. Serve kills what still runs
  // kStopGrace later.
  void Abort(const std::string& why) {
    if (aborted_) return;
    aborted_ = true;
    abort_reason_ = why;
    abort_deadline_ = std::chrono::steady_clock::now() + kStopGrace;
    Answer("abort");
    for (Client& c : clients_)
      if (!c.ended) kill(c.pid, SIGINT);
  }

  // The shared server's figures at the barriers around each phase's measured part; a database every
  // client closed is cleared on its shared server.
  void Measure(const std::string& tag) {
    if (tag.rfind("closed ", 0) == 0) {
      Status st = closed_(tag.substr(tag.rfind('/') + 1));
      if (!st.ok()) Abort(st.ToString());
      return;
    }
    if (tag.rfind("measure ", 0) == 0) spans_[tag.substr(8)].at_start = ReadServerTotals(false);
    if (tag.rfind("end ", 0) != 0) return;
    PhaseSpan& span = spans_[tag.substr(4)];
    const ServerTotals end = ReadServerTotals(true);
    span.disk_bytes = DirectoryBytes(work_dir_);
    span.server = ServerSpent(span.at_start, end);
  }

  void StopAll() {
    for (Client& c : clients_) {
      if (c.fd >= 0) close(c.fd);
      c.fd = -1;
      if (!c.ended) c.exit_code = StopChild(c.pid, SIGTERM, std::chrono::seconds(10)).code;
      c.ended = true;
    }
  }

  std::string work_dir_;
  std::function<Status(const std::string& engine)> closed_;
  std::vector<Client> clients_;
  bool aborted_ = false;
  std::string abort_reason_;
  uint64_t failures_ = 0;  // failures seen so far, in the order they came
  std::chrono::steady_clock::time_point abort_deadline_;
  std::map<std::string, PhaseSpan> spans_;
};

// The shared servers of the run's engines (AdapterFactory::start_shared_server), in engine order.
struct SharedServers {
  std::vector<std::unique_ptr<SharedServer>> servers;
  std::vector<std::string> engines;                          // servers[i] is engines[i]'s
  std::vector<std::pair<std::string, std::string>> options;  // for every client
  std::vector<std::string> replaced;                         // options of the run they replace
  std::vector<std::string> environment;                      // for every client
};

Status StartSharedServers(const RunPlan& plan, const std::string& work_dir, SharedServers* out) {
  for (const AdapterFactory* engine : plan.common.engines) {
    if (!engine->start_shared_server) continue;
    AdapterOptions o;
    o.dir = (fs::path(work_dir) / ("server-" + engine->name)).string();
    o.durability = plan.common.durability;
    o.cache_bytes = plan.common.cache_bytes;
    o.native_options = plan.common.native_options;
    Result<std::unique_ptr<SharedServer>> server = engine->start_shared_server(o);
    if (!server.ok()) return server.status().WithContext("--clients: the shared " + engine->name + " server");
    if (*server == nullptr) continue;  // nothing to share
    for (auto& kv : (*server)->ClientOptions()) out->options.push_back(kv);
    for (auto& k : (*server)->ReplacedOptionKeys()) out->replaced.push_back(k);
    for (auto& e : (*server)->ClientEnvironment()) out->environment.push_back(e);
    out->servers.push_back(std::move(*server));
    out->engines.push_back(engine->name);
  }
  return Status::Ok();
}

// The command line of client `index` (0-based).
std::vector<std::string> ClientCommand(const RunPlan& plan, const std::vector<std::string>& run_arguments,
                                       const SharedServers& shared, const std::string& work_dir, uint32_t index) {
  char self[4096];
  const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  std::vector<std::string> argv = {n > 0 ? std::string(self, static_cast<size_t>(n)) : "/proc/self/exe", "run"};
  for (std::string& a : ClientArguments(run_arguments, shared.replaced)) argv.push_back(std::move(a));
  const std::string out = (fs::path(plan.out_dir) / fmt::format("client-{}", index + 1)).string();
  for (const auto& [key, value] : shared.options) argv.insert(argv.end(), {"--engine-option", key + "=" + value});
  // Each client its own random choices: seed + its index (the first keeps the run's seed).
  argv.insert(argv.end(),
              {"--client", fmt::format("{}/{}", index + 1, plan.clients), "--client-work-dir", work_dir, "--out", out,
               "--hdr-log", out + "/hdr", "--format", "json", "--seed", std::to_string(plan.common.seed + index)});
  return argv;
}

// A merged phase's resources: its clients' (each this process's own part) summed, with the shared
// server's measured here, and the run's disk at the phase's end.
std::optional<ResourceUsage> MergedResources(const PhaseResult& merged, const std::vector<MergeInput>& inputs,
                                             const PhaseSpan* span) {
  ResourceSnapshot spent;
  spent.sync_calls = 0;
  WriteTally written;
  uint64_t live = 0;
  for (const MergeInput& in : inputs) {
    for (const PhaseResult& p : in.results.phases) {
      if (p.suite != merged.suite || p.workload != merged.workload || p.dataset != merged.dataset ||
          p.engine != merged.engine || p.phase != merged.phase || !p.resources)
        continue;
      const ResourceUsage& u = *p.resources;
      spent.cpu_user_ns += u.cpu_user_ns;
      spent.cpu_sys_ns += u.cpu_sys_ns;
      spent.io_read_bytes += u.io_read_bytes;
      spent.io_write_bytes += u.io_write_bytes;
      spent.rchar += u.rchar;
      spent.wchar += u.wchar;
      spent.max_rss_bytes = std::max(spent.max_rss_bytes, u.max_rss_bytes);
      spent.anon_rss_bytes = std::max(spent.anon_rss_bytes, u.anon_rss_bytes);
      spent.sync_calls = spent.sync_calls && u.fsync_calls ? std::optional<uint64_t>(*spent.sync_calls + *u.fsync_calls)
                                                           : std::nullopt;
      written.commits += u.commits;
      written.logical_bytes += u.logical_bytes;
      live = std::max(live, u.live_logical_bytes);
    }
  }
  if (span == nullptr) return std::nullopt;
  return MakeResourceUsage(spent, true, merged.operations, written, span->disk_bytes, live, span->server);
}

// Reads every client's results and merges them (one client: its results as they are).
Status MergeClients(const RunPlan& plan, const ClientGroup& group, RunResults* results) {
  std::vector<MergeInput> inputs;
  for (size_t i = 0; i < group.clients().size(); ++i) {
    MergeInput in;
    in.file = fmt::format("client-{}/results.json", i + 1);
    DBXB_RETURN_IF_ERROR(ReadResultsFile((fs::path(plan.out_dir) / in.file).string(), &in.results));
    inputs.push_back(std::move(in));
  }
  Result<RunResults> merged = inputs.size() == 1 ? Result<RunResults>(inputs.front().results) : MergeRuns(inputs);
  if (!merged.ok()) return merged.status();
  *results = std::move(*merged);
  for (PhaseResult& p : results->phases) {
    auto span = group.spans().find(fmt::format("{}/{}/{}/{} {}", p.suite, p.workload, p.dataset, p.engine, p.phase));
    p.resources = MergedResources(p, inputs, span == group.spans().end() ? nullptr : &span->second);
  }
  // The run's configuration as the user gave it; what the clients were given besides is kept apart.
  KeyValues& config = results->context.configuration;
  auto given = std::find_if(plan.configuration.begin(), plan.configuration.end(),
                            [](const auto& kv) { return kv.first == "engine_options"; });
  for (auto& kv : config)
    if (kv.first == "engine_options") kv.first = "client_engine_options";
  if (given != plan.configuration.end()) config.push_back(*given);
  config.erase(std::remove_if(config.begin(), config.end(), [](const auto& kv) { return kv.first == "client"; }),
               config.end());
  config.emplace_back("clients", std::to_string(plan.clients));
  config.emplace_back("client_results", fmt::format("client-1 .. client-{} (results.json, hdr/)", plan.clients));
  return Status::Ok();
}

// The run's error when a client failed (FirstClientFailure), or when the clients were aborted.
Status ClientFailure(const ClientGroup& group) {
  std::vector<ClientEnd> ends;
  for (const Client& c : group.clients())
    ends.push_back(ClientEnd{c.failure, c.exit_code, c.failure.empty() ? LastLine(c.log) : "", c.failed_at});
  DBXB_RETURN_IF_ERROR(FirstClientFailure(ends));
  if (!group.abort_reason().empty() && !InterruptRequested())
    return Status::IOError("--clients: " + group.abort_reason());
  return Status::Ok();
}

}  // namespace

Status RunClients(const RunPlan& plan, const std::vector<std::string>& run_arguments, const RunEnvironment& env,
                  RunResults* results) {
  WorkDir work;
  DBXB_RETURN_IF_ERROR(work.Create(plan.data_dir));
  OutputDir out;
  DBXB_RETURN_IF_ERROR(out.Prepare(plan.out_dir));
  SharedServers shared;
  DBXB_RETURN_IF_ERROR(StartSharedServers(plan, work.path(), &shared));
  std::vector<std::string> environment;
  for (char** e = environ; *e != nullptr; ++e) environment.emplace_back(*e);
  for (const std::string& e : shared.environment) environment.push_back(e);
  ClientGroup group(work.path(), [&shared](const std::string& engine) {
    for (size_t i = 0; i < shared.servers.size(); ++i)
      if (shared.engines[i] == engine)
        DBXB_RETURN_IF_ERROR(shared.servers[i]->ClientsClosedDatabase().WithContext("--clients: " + engine));
    return Status::Ok();
  });
  for (uint32_t i = 0; i < plan.clients; ++i) {
    const std::string log = (fs::path(plan.out_dir) / fmt::format("client-{}.log", i + 1)).string();
    DBXB_RETURN_IF_ERROR(group.Start(ClientCommand(plan, run_arguments, shared, work.path(), i), environment, log));
  }
  if (env.console)
    *env.console << fmt::format("{} client processes started (their consoles: {}/client-N.log)\n", plan.clients,
                                plan.out_dir);
  group.Serve();
  DBXB_RETURN_IF_ERROR(ClientFailure(group));
  Status merged = MergeClients(plan, group, results);
  if (!merged.ok()) return InterruptRequested() ? Status::Interrupted("interrupted") : merged;
  results->context.command_line = env.command_line;
  if (InterruptRequested()) results->context.incomplete = true;
  if (env.console) (void)ConsoleReporter(plan.baseline).Write(*results, *env.console);
  out.Keep();
  return Status::Ok();
}

Status FirstClientFailure(const std::vector<ClientEnd>& ends) {
  const ClientEnd* first = nullptr;
  for (const ClientEnd& e : ends)
    if (e.failed_at != 0 && (first == nullptr || e.failed_at < first->failed_at)) first = &e;
  if (first == nullptr) return Status::Ok();
  const std::string client = fmt::format("client {} of {}", first - ends.data() + 1, ends.size());
  if (!first->failure.empty()) return Status::IOError(client + ": " + first->failure);
  std::string line = first->last_line;
  if (line.rfind("dbx-bench: ", 0) == 0) line.erase(0, 11);
  const std::string msg = fmt::format("{} failed (exit {}): {}", client, first->exit_code, line);
  return first->exit_code == 2 ? Status::InvalidArgument(msg) : Status::IOError(msg);
}

std::vector<std::string> ClientArguments(const std::vector<std::string>& run_arguments,
                                         const std::vector<std::string>& replaced) {
  std::vector<std::string> out;
  auto replaced_option = [&](const std::string& value) {
    const std::string key = value.substr(0, value.find('='));
    return std::find(replaced.begin(), replaced.end(), key) != replaced.end();
  };
  for (size_t i = 0; i < run_arguments.size(); ++i) {
    const std::string& a = run_arguments[i];
    const std::string name = a.substr(0, a.find('='));
    const bool joined = name.size() < a.size();
    const std::string value = joined                         ? a.substr(name.size() + 1)
                              : i + 1 < run_arguments.size() ? run_arguments[i + 1]
                                                             : "";
    const auto& parent = ParentOptions();
    const bool drop = std::find(parent.begin(), parent.end(), name) != parent.end() ||
                      (name == "--engine-option" && replaced_option(value));
    if (drop) {
      if (!joined) ++i;
      continue;
    }
    out.push_back(a);
  }
  return out;
}

}  // namespace dbxb
