// Prints what Hef::create answers for each HEF path given: "<path>\t<status>" (0 = success), or
// "<path>\tcrash" when the process died on a signal (each file is opened in a child process, as a
// crash in libhailort takes its process down). "--buffer" before the paths uses Hef::create(MemoryView).
// Built against the fake's headers and library by test/device/fake-hef-checks.test.ts.
#include <hailo/hailort.hpp>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

int main(int argc, char **argv) {
    bool buffer = false;
    for (int i = 1; i < argc; i++) {
        const std::string path = argv[i];
        if (path == "--buffer") { buffer = true; continue; }
        std::fflush(stdout);
        const pid_t pid = fork();
        if (pid == 0) {
            int status;
            if (buffer) {
                std::ifstream f(path, std::ios::binary);
                std::vector<char> bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
                status = static_cast<int>(hailort::Hef::create(hailort::MemoryView(bytes.data(), bytes.size())).status());
            } else {
                status = static_cast<int>(hailort::Hef::create(path).status());
            }
            std::printf("%s\t%d\n", path.c_str(), status);
            std::fflush(stdout);
            _exit(0);
        }
        int ws = 0;
        waitpid(pid, &ws, 0);
        if (WIFSIGNALED(ws)) std::printf("%s\tcrash\n", path.c_str());
    }
    return 0;
}
