// `run --clients N`: the load of one run from N separate client processes on each database, merged into
// one result. This process (the parent) runs no phase itself:
//
//   1. makes the run's work directory and output directory, and starts each engine's shared server
//      (AdapterFactory::start_shared_server: PostgreSQL's private server, on TCP with postgres.listen=tcp,
//      or with postgres.url the run id of the run's schemas on that server, which it drops at the end);
//      engines without one share their database files in the work directory (SQLite in WAL mode, LMDB);
//   2. starts N copies of this executable as `run <the same arguments> --client I/N --client-work-dir DIR
//      --out OUT/client-I --hdr-log OUT/client-I/hdr --format json --seed SEED+I-1` (each client its own
//      random choices), with the shared server's options and
//      (in their environment, never on a command line) its password; each writes its console to
//      OUT/client-I.log and ends when this process does (PR_SET_PDEATHSIG);
//   3. answers their barrier (harness/client_barrier.h): every phase starts in every client after every
//      client finished the phase before, its measured part starts together, and no client closes a
//      database another still uses. A client that fails, ends early or goes elsewhere aborts the others;
//      none is left running, and the run ends with that client's error;
//   4. merges the clients' results with `merge`'s code (records/phase_merge.h): throughput the concurrent
//      sum, percentiles from the added histograms. Each merged phase's resources are the clients' summed
//      plus the shared server's, measured here between the barriers at its measured start and end.
#pragma once

#include <string>
#include <vector>

#include "harness/run_plan.h"
#include "harness/runner.h"
#include "records/result.h"

namespace dbxb {

/// Runs `plan` (plan.clients > 0) as described above and fills *results with the merged result.
/// `run_arguments` are the arguments of this `run` as given (after "run"), from which each client's are
/// made. InvalidArgument for bad input (a client's too); Interrupted when interrupted; another error,
/// naming the client, when a client failed (its results stay in OUT/client-I).
[[nodiscard]] Status RunClients(const RunPlan& plan, const std::vector<std::string>& run_arguments,
                                const RunEnvironment& env, RunResults* results);

/// How one client of a run ended, as the parent saw it.
struct ClientEnd {
  std::string failure;     ///< what it said failed on the barrier ("fail ..."), "" if nothing
  int exit_code = 0;       ///< 130: interrupted (by the parent, or with it), not a failure
  std::string last_line;   ///< its console's last line
  uint64_t failed_at = 0;  ///< the order in which its failure (message or failing exit) came; 0 = none
};

/// The run's error from how its clients ended: the failure that came first, as "client I of N: ...";
/// OK when none failed. Later failures may only follow from the first (a client that created a shared
/// schema and failed drops it under the others: "relation does not exist"), so they are not the cause.
/// A first failure that is an exit code 2 (bad input) is InvalidArgument, any other IOError.
Status FirstClientFailure(const std::vector<ClientEnd>& ends);

/// The arguments of a client: `run_arguments` without the options the parent keeps to itself (--clients,
/// --out, --format, --hdr-log, --data-dir, --seed, --save-baseline) or that a shared server replaces
/// (--engine-option KEY=... for KEY in `replaced`), in either spelling ("--out X" or "--out=X").
std::vector<std::string> ClientArguments(const std::vector<std::string>& run_arguments,
                                         const std::vector<std::string>& replaced);

}  // namespace dbxb
