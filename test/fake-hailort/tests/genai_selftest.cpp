// Faithfulness checks of the fake libhailort's GenAI classes against what HailoRT 5.x's sources
// say (hailort5-api.md §2; libhailort/src/genai/llm/llm.cpp, vlm/vlm.cpp, hailort_server/genai/).
// The static_asserts check the API's shape and hold against the real headers too (native/README.md);
// the run-time checks print "PASS name" / "FAIL name: detail".
// Usage: genai_selftest LLM_HEF LORA_HEF VLM_HEF FACTS
#include <hailo/hailort.hpp>
#include <hailo/genai/llm/llm.hpp>
#include <hailo/genai/vlm/vlm.hpp>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <type_traits>
#include <vector>

using namespace hailort;
using namespace hailort::genai;
using Status = LLMGeneratorCompletion::Status;

static_assert(!std::is_default_constructible<LLMGeneratorParams>::value, "LLMGeneratorParams() is private");
static_assert(std::is_copy_constructible<LLMGeneratorParams>::value, "LLMGeneratorParams is copyable");
static_assert(std::is_constructible<LLMGeneratorParams, float32_t, float32_t, uint32_t, float32_t, uint32_t, bool, uint32_t>::value, "the 7-argument constructor");
static_assert(!std::is_copy_constructible<LLMGeneratorCompletion>::value && std::is_move_constructible<LLMGeneratorCompletion>::value, "LLMGeneratorCompletion is move-only");
static_assert(!std::is_move_assignable<LLMGeneratorCompletion>::value, "LLMGeneratorCompletion has no move assignment");
static_assert(!std::is_copy_constructible<LLM>::value && std::is_move_constructible<LLM>::value && !std::is_move_assignable<LLM>::value, "LLM: move-constructible only");
static_assert(!std::is_copy_constructible<VLM>::value && std::is_move_constructible<VLM>::value && !std::is_move_assignable<VLM>::value, "VLM: move-constructible only");
static_assert(!std::is_copy_constructible<LLMGenerator>::value && std::is_move_constructible<LLMGenerator>::value, "LLMGenerator: move-constructible only");
static_assert(static_cast<int>(Status::GENERATING) == 0 && static_cast<int>(Status::MAX_TOKENS_REACHED) == 1 &&
    static_cast<int>(Status::LOGICAL_END_OF_GENERATION) == 2 && static_cast<int>(Status::ABORTED) == 3, "Status values");
static_assert(std::is_same<decltype(std::declval<LLMGeneratorCompletion &>().read(std::chrono::milliseconds(1))), Expected<std::string>>::value, "read(timeout) -> Expected<string>");
static_assert(std::is_same<decltype(std::declval<const VLM &>().input_frame_size()), uint32_t>::value, "input_frame_size() -> uint32_t");
static_assert(std::is_same<decltype(std::declval<const VLM &>().input_frame_shape()), const hailo_3d_image_shape_t &>::value, "input_frame_shape()");

static int failures = 0;

static void check(const char *name, bool ok, const std::string &detail = "") {
    if (ok) std::printf("PASS %s\n", name);
    else { std::printf("FAIL %s: %s\n", name, detail.c_str()); failures++; }
}

static std::string user(const std::string &text) { return R"({"role": "user", "content": ")" + text + R"("})"; }

/** Reads to the end; answers the text and the last status (or the failing status as -status). */
static std::pair<std::string, int> read_all(LLMGeneratorCompletion &c, int *reads = nullptr) {
    std::string text;
    int n = 0;
    while (c.generation_status() == Status::GENERATING) {
        auto t = c.read(std::chrono::milliseconds(5000));
        if (!t) return {text, -static_cast<int>(t.status())};
        text += t.value();
        n++;
    }
    if (reads) *reads = n;
    return {text, static_cast<int>(c.generation_status())};
}

int main(int argc, char **argv) {
    if (argc < 5) { std::fprintf(stderr, "usage: genai_selftest LLM_HEF LORA_HEF VLM_HEF FACTS\n"); return 2; }
    const std::string llm_hef = argv[1], lora_hef = argv[2], vlm_hef = argv[3];
    setenv("FAKE_HAILORT_FACTS", argv[4], 1);
    setenv("HAILORT_LOGGER_PATH", "NONE", 1);
    setenv("FAKE_HAILORT_TOKENS_PER_S", "2000", 1);
    setenv("FAKE_HAILORT_PREFILL_MS", "5", 1);

    check("BUILTIN is \"<builtin>\"", BUILTIN == "<builtin>");
    check("read's default timeout is 10 s", LLMGeneratorCompletion::DEFAULT_READ_TIMEOUT == std::chrono::seconds(10));
    auto vdevice = VDevice::create_shared();
    check("VDevice::create_shared", vdevice.status() == HAILO_SUCCESS);
    if (!vdevice) return 1;

    check("BUILTIN without a LoRA: 6", LLM::create(vdevice.value(), LLMParams(BUILTIN)).status() == HAILO_INVALID_OPERATION);
    check("a missing HEF file: 13", LLM::create(vdevice.value(), LLMParams("/no/such.hef")).status() == HAILO_OPEN_FILE_FAILURE);
    {
        auto lora = LLM::create(vdevice.value(), LLMParams(lora_hef, "coder"));
        check("a LoRA the HEF has (coder__prefill)", lora.status() == HAILO_SUCCESS, std::to_string(lora.status()));
    }
    check("a LoRA the HEF lacks: 61", LLM::create(vdevice.value(), LLMParams(lora_hef, "nope")).status() == HAILO_NOT_FOUND);

    {  // the LLM lives in this block: leaving it releases the KV cache
    auto llm = LLM::create(vdevice.value(), LLMParams(llm_hef));
    check("LLM::create", llm.status() == HAILO_SUCCESS, std::to_string(llm.status()));
    if (!llm) return 1;
    auto second = LLM::create(vdevice.value(), LLMParams(llm_hef));
    check("a second LLM while one holds the KV cache: 6", second.status() == HAILO_INVALID_OPERATION);
    check("a VLM while an LLM holds the KV cache: 6", VLM::create(vdevice.value(), VLMParams(vlm_hef)).status() == HAILO_INVALID_OPERATION);

    auto defaults = llm->create_generator_params();
    check("defaults from hailo-config.json", defaults && std::fabs(defaults->temperature() - 0.7f) < 1e-6 && defaults->max_generated_tokens() == 200 &&
        defaults->top_k() == 20 && std::fabs(defaults->frequency_penalty() - 1.1f) < 1e-6 && defaults->do_sample());

    auto bad = [&](const char *name, float t, float p, uint32_t k, float f) {
        LLMGeneratorParams params(t, p, k, f, 10, false, 1);
        check(name, llm->create_generator(params).status() == HAILO_INVALID_ARGUMENT);
    };
    bad("temperature 0: 2", 0.0f, 0.5f, 1, 1.0f);
    bad("temperature NaN: 2", std::nanf(""), 0.5f, 1, 1.0f);
    bad("top_p 1.5: 2", 0.5f, 1.5f, 1, 1.0f);
    bad("top_p -0.1: 2", 0.5f, -0.1f, 1, 1.0f);
    bad("top_k 0: 2", 0.5f, 0.5f, 0, 1.0f);
    bad("frequency_penalty 0: 2", 0.5f, 0.5f, 1, 0.0f);
    check("frequency_penalty NaN passes (NaN != 0, as llm.cpp compares)", llm->create_generator(LLMGeneratorParams(0.5f, 0.5f, 1, std::nanf(""), 10, false, 1)).status() == HAILO_SUCCESS);
    check("top_p 0 and 1 are inside [0, 1]", llm->create_generator(LLMGeneratorParams(0.5f, 0.0f, 1, 1.0f, 10, false, 1)).status() == HAILO_SUCCESS &&
        llm->create_generator(LLMGeneratorParams(0.5f, 1.0f, 1, 1.0f, 10, false, 1)).status() == HAILO_SUCCESS);

    const LLMGeneratorParams greedy(0.7f, 0.8f, 20, 1.1f, 200, false, 7);
    std::string first_text;
    {
        auto c = llm->generate(greedy, {user("hello <b>there</b>")});
        check("generate", c.status() == HAILO_SUCCESS, std::to_string(c.status()));
        if (!c) return 1;
        auto r = read_all(c.value());
        first_text = r.first;
        check("the answer streams to a logical end", r.second == static_cast<int>(Status::LOGICAL_END_OF_GENERATION), std::to_string(r.second));
        check("the answer echoes the prompt, HTML and all", r.first.rfind("You said: hello <b>there</b>.", 0) == 0, r.first);
        auto after = c->read(std::chrono::milliseconds(10));
        check("read() after the end: 6", after.status() == HAILO_INVALID_OPERATION);
    }
    check("the first answer is not empty", !first_text.empty());
#if (HAILORT_MINOR_VERSION > 1) || (HAILORT_MINOR_VERSION == 1 && HAILORT_REVISION_VERSION >= 1)
    auto usage = llm->get_context_usage_size();
    check("the context holds the prompt and the answer", usage && usage.value() > 10, usage ? std::to_string(usage.value()) : "error");
    check("max_context_capacity = kv_cache_size from hailo-config.json", llm->max_context_capacity().value() == 1024);
    auto saved = llm->save_context();
    check("save_context", saved.status() == HAILO_SUCCESS);
    check("clear_context", llm->clear_context() == HAILO_SUCCESS && llm->get_context_usage_size().value() == 0);
    check("load_context restores the usage", llm->load_context(MemoryView(saved.value())) == HAILO_SUCCESS && llm->get_context_usage_size().value() == usage.value());
    std::string junk = "not a context blob at all, but long enough to have a header";
    check("load_context of something else: 2", llm->load_context(MemoryView(junk)) == HAILO_INVALID_ARGUMENT);
#else
    check("clear_context", llm->clear_context() == HAILO_SUCCESS);
#endif
    llm->clear_context();
    {
        auto c = llm->generate(greedy, {user("hello <b>there</b>")});
        check("greedy sampling: the same prompt on the same context gives the same answer", c && read_all(c.value()).first == first_text);
    }
    llm->clear_context();
    {
        LLMGeneratorParams three(0.7f, 0.8f, 20, 1.1f, 3, false, 7);
        auto c = llm->generate(three, {user("count to three")});
        int reads = 0;
        auto r = read_all(c.value(), &reads);
        check("max tokens 3: three reads, the last MAX_TOKENS_REACHED", reads == 3 && r.second == static_cast<int>(Status::MAX_TOKENS_REACHED), std::to_string(reads));
    }
    {
        setenv("FAKE_HAILORT_TOKENS_PER_S", "20", 1);
        auto c = llm->generate(greedy, {user("a long answer please")});
        auto t = c->read(std::chrono::milliseconds(2000));
        check("generate while a generation runs: 6", llm->generate(greedy, {user("again")}).status() == HAILO_INVALID_OPERATION);
        const auto t0 = std::chrono::steady_clock::now();
        check("abort", c->abort() == HAILO_SUCCESS);
        const auto ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        check("abort returns at once, not after the whole answer", ms < 500, std::to_string(ms));
        auto r = read_all(c.value());
        check("after abort the last token says ABORTED", t && r.second == static_cast<int>(Status::ABORTED), std::to_string(r.second));
        setenv("FAKE_HAILORT_TOKENS_PER_S", "2000", 1);
    }
    {
        setenv("FAKE_HAILORT_PREFILL_MS", "400", 1);
        auto c = llm->generate(greedy, {user("slow start")});
        check("read() with nothing ready in time: 4", c->read(std::chrono::milliseconds(20)).status() == HAILO_TIMEOUT);
        check("the generation goes on after a read timeout", read_all(c.value()).second == static_cast<int>(Status::LOGICAL_END_OF_GENERATION));
        setenv("FAKE_HAILORT_PREFILL_MS", "5", 1);
    }
    check("messages that are not JSON: 2", llm->generate(greedy, {"{not json"}).status() == HAILO_INVALID_ARGUMENT);
    check("tokenize", llm->tokenize("hello world").value().size() == 2);
    }

    {
    auto vlm = VLM::create(vdevice.value(), VLMParams(vlm_hef));
    check("VLM::create after the LLM was released", vlm.status() == HAILO_SUCCESS, std::to_string(vlm.status()));
    if (!vlm) return 1;
    check("input_frame_size from the encoder's first input (56x56x3 UINT8)", vlm->input_frame_size() == 56 * 56 * 3);
    check("input_frame_shape", vlm->input_frame_shape().height == 56 && vlm->input_frame_shape().width == 56 && vlm->input_frame_shape().features == 3);
    check("input_frame_format_type / order", vlm->input_frame_format_type() == HAILO_FORMAT_TYPE_UINT8 && vlm->input_frame_format_order() == HAILO_FORMAT_ORDER_NHWC);
    std::vector<uint8_t> frame(vlm->input_frame_size());
    for (size_t i = 0; i < frame.size(); i++) frame[i] = static_cast<uint8_t>(i % 3 == 0 ? 10 : i % 3 == 1 ? 20 : 30);
    const std::string with_image = R"({"role": "user", "content": [{"type": "image"}, {"type": "text", "text": "what is this?"}]})";
    const LLMGeneratorParams vgreedy(0.7f, 0.8f, 20, 1.1f, 200, false, 7);
    {
        auto c = vlm->generate(vgreedy, {with_image}, {MemoryView(frame.data(), frame.size())});
        check("VLM generate with one image and one frame", c.status() == HAILO_SUCCESS);
        auto r = read_all(c.value());
        check("the device saw the frame in NHWC order (channel means 10/20/30)", r.first.find("Image 1 means 10.0/20.0/30.0") != std::string::npos, r.first);
    }
    std::vector<uint8_t> small(frame.size() - 1);
    check("a frame of the wrong size: generate answers 6", vlm->generate(vgreedy, {with_image}, {MemoryView(small.data(), small.size())}).status() == HAILO_INVALID_OPERATION);
    {
        auto c = vlm->generate(vgreedy, {with_image}, {});
        check("fewer frames than image entries: generate is accepted", c.status() == HAILO_SUCCESS);
        auto t = c->read(std::chrono::milliseconds(2000));
        check("... and the first read answers 6 (the prefill failed)", t.status() == HAILO_INVALID_OPERATION, std::to_string(t.status()));
    }
    }

    setenv("FAKE_HAILORT_FAULT", "kv-cache-busy", 1);
    check("another process's model holds the KV cache: 6", LLM::create(vdevice.value(), LLMParams(llm_hef)).status() == HAILO_INVALID_OPERATION);
    setenv("FAKE_HAILORT_FAULT", "", 1);

    std::printf("%d failures\n", failures);
    return failures == 0 ? 0 : 1;
}
