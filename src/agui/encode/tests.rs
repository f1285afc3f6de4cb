use super::*;
use crate::assembler::Protocol;
use crate::openai::Translator;

fn translate(input: &[u8]) -> String {
    let mut t = Translator::new(Protocol::AgentApi, Protocol::AgUi).unwrap();
    let mut out = t.push(input).unwrap();
    out.extend(t.finish().unwrap());
    String::from_utf8(out).unwrap()
}

#[test]
fn scratch() {
    for name in ["process_text", "process_text_error", "process_agentscope"] {
        let input = std::fs::read(format!("tests/fixtures/reference/sse/{name}.sse")).unwrap();
        println!("== {name}\n{}", translate(&input));
    }
}
