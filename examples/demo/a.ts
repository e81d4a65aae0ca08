const X = "a";
const Y = X;

console.log(X);
