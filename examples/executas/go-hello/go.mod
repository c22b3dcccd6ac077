module example.com/anna-examples/go-hello

go 1.19
