# Read by ctest after the discovered GoogleTest cases (CMakeLists.txt). ctest
# starts tests in descending COST; without a cost history, as in a fresh
# clone, it starts them in the order they were listed, and these two CLI
# sweeps, each longer than most of the suite on one core, came last and ran
# alone. Starting them first lets the rest of the suite fill the other core.
set_tests_properties(CliE2EDeterminism.EveryScenarioTwiceWithTwoSeeds
  CliE2EBadInput.EveryBrokenScenarioFileNamesItsPosition PROPERTIES COST 1000)
