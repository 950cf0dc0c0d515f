"""Any sliding-block puzzle: board, pieces, goal, rule and metric, and its state graph."""
