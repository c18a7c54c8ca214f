// Every test file runs with the domain's event listeners wired, as the server does at start (lib/wiring.ts).
import "@/lib/wiring";
