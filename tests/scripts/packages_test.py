"""The Kubernetes image (scripts/k8s/Dockerfile) can configure and run mpsim:
its build stage installs scripts/packages.txt, which must hold a Debian
package for every find_package of CMakeLists.txt, and its runtime stage
must install the package of every shared library the mpsim binary loads.

Usage: packages_test.py MPSIM_BINARY"""
import os
import re
import subprocess
import sys
import unittest

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
BINARY = sys.argv.pop(1) if len(sys.argv) > 1 else os.path.join(ROOT, "build", "mpsim")

# The Debian package that gives CMake each package's configuration.
CONFIG_PACKAGE = {
    "Protobuf": "libprotobuf-dev",
    "yaml-cpp": "libyaml-cpp-dev",
    "CLI11": "libcli11-dev",
    "nlohmann_json": "nlohmann-json3-dev",
    "Eigen3": "libeigen3-dev",
    "GTest": "libgtest-dev",
    "Threads": None,  # the C library's
    "Boost": "libboost-dev",
    "benchmark": "libbenchmark-dev",
}
# Libraries of the base image itself (debian:bookworm-slim).
BASE_LIBRARIES = ("linux-vdso", "ld-linux", "libc.so", "libm.so", "libstdc++", "libgcc_s", "libz.so")


def read(path):
    with open(os.path.join(ROOT, path)) as f:
        return f.read()


def package_list():
    return [l.strip() for l in read("scripts/packages.txt").splitlines() if l.strip() and not l.startswith("#")]


def stages():
    """The Dockerfile's text per stage, in order."""
    return re.split(r"^FROM ", read("scripts/k8s/Dockerfile"), flags=re.M)[1:]


class Packages(unittest.TestCase):
    def test_every_find_package_has_its_debian_package_listed(self):
        listed = set(package_list())
        found = re.findall(r"find_package\((\w[\w-]*)", read("CMakeLists.txt"))
        self.assertIn("Protobuf", found)
        for name in found:
            self.assertIn(name, CONFIG_PACKAGE, f"find_package({name}): say which Debian package gives it")
            pkg = CONFIG_PACKAGE[name]
            if pkg:
                self.assertIn(pkg, listed, f"find_package({name}) needs {pkg} in scripts/packages.txt")

    def test_the_build_stage_installs_the_list(self):
        build = stages()[0]
        self.assertIn("COPY scripts/packages.txt", build)
        self.assertRegex(build, r"packages\.txt \| xargs apt-get install")
        self.assertNotRegex(build, r"apt-get install[^\n]*\blib\w+-dev\b", "list packages in scripts/packages.txt only")

    def test_the_runtime_stage_installs_every_library_mpsim_loads(self):
        if not os.path.exists(BINARY):
            self.skipTest(f"{BINARY} not built")
        runtime = stages()[-1]
        libs = re.findall(r"^\s*(\S+\.so[.\d]*)\s", subprocess.run(["ldd", BINARY], capture_output=True, text=True).stdout, re.M)
        self.assertTrue(libs, "ldd listed nothing")
        for lib in libs:
            if os.path.basename(lib).startswith(BASE_LIBRARIES):
                continue
            owner = subprocess.run(["dpkg", "-S", lib], capture_output=True, text=True).stdout
            pkg = owner.split(":")[0].strip()
            self.assertTrue(pkg, f"no Debian package owns {lib}")
            self.assertIn(pkg, runtime, f"the runtime stage must install {pkg} (for {lib})")


if __name__ == "__main__":
    unittest.main()
