// mpsim: the command line. Parses flags with CLI11 and hands each subcommand
// to app/commands.h; every usage error exits 2 with one clear message.
#include <CLI/CLI.hpp>
#include <iostream>

#include "app/commands.h"
#include "app/version.h"

namespace {

using mpsim::kExitBadInput;

void AddRun(CLI::App& app, mpsim::RunArgs* a) {
  CLI::App* run = app.add_subcommand("run", "Run one scenario and write its results");
  run->add_option("SCENARIO", a->scenario, "scenario YAML file")->required();
  run->add_option("--seed", a->seed, "root seed (default: spec.seed of the scenario)");
  run->add_option("--set", a->overrides,
                  "override a scenario key, e.g. spec.machinePools[0].replicas=500")
      ->type_name("PATH=VALUE");
  run->add_option("--out", a->out_dir, "output directory (default: results/<scenario-name>)");
  run->add_flag("--plot", a->plot, "also write plots (needs matplotlib)");
  run->add_option("--explain", a->explain_pool, "explain why POOL took as long as it did")
      ->type_name("POOL");
  auto* json =
      run->add_flag("--json", a->json, "print summary.json to stdout instead of the summary");
  auto* quiet = run->add_flag("--quiet", a->quiet, "print nothing on success");
  json->excludes(quiet);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"mpsim: a deterministic simulator of Cluster API MachinePool behaviour"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "mpsim " + mpsim::VersionString());

  mpsim::RunArgs run;
  AddRun(app, &run);

  std::vector<std::string> validate_files;
  CLI::App* validate = app.add_subcommand("validate", "Check scenario files without running them");
  validate->add_option("SCENARIO", validate_files, "scenario YAML files")->required();

  mpsim::CheckArgs check;
  CLI::App* chk = app.add_subcommand("check", "Run scenarios and check their expectations");
  chk->add_option("SCENARIO", check.paths, "scenario files or directories")->required();
  chk->add_option("--junit", check.junit, "write JUnit XML to FILE")->type_name("FILE");
  chk->add_option("--seeds", check.seeds, "check each scenario over N seeds")
      ->check(CLI::Range(uint64_t{1}, uint64_t{100000}));
  chk->add_flag("--update-golden", check.update_golden,
                "rewrite X.golden.csv (the timeline at spec.seed) beside each scenario X.yaml");
  chk->add_option("--set", check.overrides,
                  "override a key in every scenario, e.g. to try a change")
      ->type_name("PATH=VALUE");

  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return kExitBadInput;
  }
  if (app.got_subcommand("run")) return mpsim::RunCommand(run);
  if (app.got_subcommand("validate")) return mpsim::ValidateCommand(validate_files);
  if (app.got_subcommand("check")) return mpsim::CheckCommand(check);
  return kExitBadInput;
}
