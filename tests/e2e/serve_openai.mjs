// Drives seer serve with the official openai npm package (run by
// serve_openai.sh): a streamed chat with an image, the same request whole,
// an unknown model, and embeddings of texts and an image (the SDK asks for
// base64 and decodes it). Prints one JSON object with what it got.
import OpenAI from "openai";
import { readFileSync } from "node:fs";

const [chatUrl, embedUrl, imagePath] = process.argv.slice(2);
const image = "data:image/png;base64," + readFileSync(imagePath).toString("base64");
const chat = new OpenAI({ baseURL: chatUrl + "/v1", apiKey: "sekrit", maxRetries: 0 });
const question = {
  model: "demo-llm",
  max_tokens: 24,
  temperature: 0,
  messages: [{ role: "user", content: [
    { type: "image_url", image_url: { url: image } },
    { type: "text", text: "What shapes are in the image?" },
  ] }],
};

const out = {};
const stream = await chat.chat.completions.create({ ...question, stream: true, stream_options: { include_usage: true } });
out.streamed = "";
out.chunks = 0;
for await (const chunk of stream) {
  out.chunks++;
  out.streamed += chunk.choices[0]?.delta?.content ?? "";
  if (chunk.usage) out.stream_usage = chunk.usage;
  if (chunk.choices[0]?.finish_reason) out.stream_finish = chunk.choices[0].finish_reason;
}
const whole = await chat.chat.completions.create(question);
out.whole = whole.choices[0].message.content;
out.whole_finish = whole.choices[0].finish_reason;
out.usage = whole.usage;
out.models = (await chat.models.list()).data.map((m) => m.id);
try {
  await chat.chat.completions.create({ ...question, model: "gpt-9" });
  out.unknown_model = "accepted";
} catch (e) {
  out.unknown_model = e.status;
}

const embed = new OpenAI({ baseURL: embedUrl + "/v1", apiKey: "none", maxRetries: 0 });
const texts = await embed.embeddings.create({ model: "search-llm", input: ["a red circle", "a blue square"] });
out.text_vectors = texts.data.map((d) => Array.from(d.embedding));
const pic = await embed.embeddings.create({ model: "search-llm", input: [{ image }], encoding_format: "float" });
out.image_vector = pic.data[0].embedding;
const cut = await embed.embeddings.create({ model: "search-llm", input: "a red circle", dimensions: 16 });
out.cut_vector = Array.from(cut.data[0].embedding);
console.log(JSON.stringify(out));
