// Options that several commands take with the same meaning: one function registers each, so that its
// name and --help text read the same in every command.
#pragma once

#include <string>

namespace CLI {
class App;
}

namespace dbxb {

/// Registers --force on `cmd`, into *force: replace output files dbx-bench did not write (every command
/// that writes files takes it; common/file_policy.h decides what it allows).
void AddForceFlag(CLI::App* cmd, bool* force);

/// Registers --data-dir on `cmd`, into *data_dir: where the commands that run engines create their
/// databases (empty: the system temp directory).
void AddDataDirOption(CLI::App* cmd, std::string* data_dir);

}  // namespace dbxb
