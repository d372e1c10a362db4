#include "cli/command_options.h"

#include <CLI/CLI.hpp>

namespace dbxb {

void AddForceFlag(CLI::App* cmd, bool* force) {
  cmd->add_flag("--force", *force,
                "Replace output files that dbx-bench did not write (never a device, FIFO, symbolic link or an input)");
}

void AddDataDirOption(CLI::App* cmd, std::string* data_dir) {
  cmd->add_option("--data-dir", *data_dir, "Where databases are created (default: system temp dir)");
}

}  // namespace dbxb
