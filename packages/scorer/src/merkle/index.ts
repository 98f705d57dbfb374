export { leafHash, nodeHash, merkleRoot } from "./root";
