module example.com/anna-examples/go-multi

go 1.19
